/**
 * The last few results of costly work by key (comparisons of two runs: ten
 * thousand sign flips per metric), so the pages of one comparison, or a
 * reload, do not compute it again. Keys carry the runs' report versions, so
 * a rewritten report is never answered from here. A failed computation is
 * not kept.
 */
export class Memo<Value> {
  private readonly entries = new Map<string, Promise<Value>>();

  constructor(private readonly capacity: number) {}

  get(key: string, compute: () => Promise<Value>): Promise<Value> {
    const kept = this.entries.get(key);
    if (kept !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, kept);
      return kept;
    }
    const value = compute();
    this.entries.set(key, value);
    value.catch(() => this.entries.delete(key));
    for (const oldest of this.entries.keys()) {
      if (this.entries.size <= this.capacity) break;
      this.entries.delete(oldest);
    }
    return value;
  }
}
