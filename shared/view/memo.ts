/**
 * The last few results of costly work by key (comparisons of two runs: ten
 * thousand sign flips per metric), so the pages of one comparison, or a
 * reload, do not compute it again. Keys carry the versions of the objects
 * read (the runs' report.json and cases.jsonl), so a rewritten object is
 * never answered from here. A failed computation is not kept, nor a value
 * `keep` refuses (an object that could not be read: once repaired, it is
 * read again even if its version were the same).
 */
export class Memo<Value> {
  private readonly entries = new Map<string, Promise<Value>>();

  constructor(
    private readonly capacity: number,
    private readonly keep: (value: Value) => boolean = () => true,
  ) {}

  get(key: string, compute: () => Promise<Value>): Promise<Value> {
    const kept = this.entries.get(key);
    if (kept !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, kept);
      return kept;
    }
    const value = compute();
    this.entries.set(key, value);
    const forget = () => {
      if (this.entries.get(key) === value) this.entries.delete(key);
    };
    value.then((result) => (this.keep(result) ? undefined : forget()), forget);
    for (const oldest of this.entries.keys()) {
      if (this.entries.size <= this.capacity) break;
      this.entries.delete(oldest);
    }
    return value;
  }
}
