/** A case by its index in the run's sorted case ids, with its value of one statistic. */
export interface ValuedCase {
  readonly index: number;
  readonly value: number;
}

/**
 * The `count` cases with the highest values (ties: the lowest index first),
 * or with the lowest values (ties: the highest index first), of all the cases
 * offered: the first and the last `count` of the whole list sorted by value
 * descending, then index ascending, without building or sorting that list. It
 * keeps `count` cases in order, so a million offers cost a million comparisons
 * with the last one kept and hold `count` entries, where sorting them all
 * would hold a million.
 */
export class ExtremeCases {
  private readonly kept: ValuedCase[] = [];

  constructor(
    private readonly count: number,
    private readonly end: 'highest' | 'lowest',
  ) {}

  offer(index: number, value: number): void {
    const kept = this.kept;
    const last = kept.at(-1);
    if (kept.length >= this.count && (last === undefined || !this.precedes(index, value, last))) return;
    let low = 0;
    let high = kept.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.precedes(index, value, kept[middle] as ValuedCase)) high = middle;
      else low = middle + 1;
    }
    kept.splice(low, 0, { index, value });
    if (kept.length > this.count) kept.pop();
  }

  /** The cases kept, the most extreme first. */
  get cases(): readonly ValuedCase[] {
    return this.kept;
  }

  private precedes(index: number, value: number, other: ValuedCase): boolean {
    if (value !== other.value) return this.end === 'highest' ? value > other.value : value < other.value;
    return this.end === 'highest' ? index < other.index : index > other.index;
  }
}
