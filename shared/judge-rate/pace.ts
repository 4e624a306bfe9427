/**
 * Evenly spaced use of a per-minute allowance (requests, or tokens), as the
 * generic cell rate algorithm spaces cells: each use of `cost` units moves a
 * theoretical time on by cost × (60,000 / perMinute) ms, and the next use may
 * start once that time has come. There is no burst allowance: a server that
 * enforces its minute quota over shorter windows (OpenAI says it may) sees
 * the same rate in every window. A use that turned out to cost less (a
 * token estimate corrected by the answer's usage) gives the difference back.
 */
export class Pace {
  private theoreticalAt = Number.NEGATIVE_INFINITY;
  private millisecondsPerUnit: number;

  constructor(perMinute: number) {
    this.millisecondsPerUnit = millisecondsPerUnitOf(perMinute);
  }

  get perMinute(): number {
    return 60_000 / this.millisecondsPerUnit;
  }

  /** A new rate from now on; what is already spaced keeps its place. */
  set perMinute(perMinute: number) {
    this.millisecondsPerUnit = millisecondsPerUnitOf(perMinute);
  }

  /** The earliest time (epoch ms) a use may start. */
  readyAt(now: number): number {
    return Math.max(now, this.theoreticalAt);
  }

  /** Records a use of `cost` units starting now. */
  take(cost: number, now: number): void {
    this.theoreticalAt = Math.max(this.theoreticalAt, now) + cost * this.millisecondsPerUnit;
  }

  /** Corrects a use by `units` (positive: it cost less than taken), never making room before now. */
  giveBack(units: number, now: number): void {
    this.theoreticalAt = Math.max(now, this.theoreticalAt - units * this.millisecondsPerUnit);
  }
}

function millisecondsPerUnitOf(perMinute: number): number {
  if (!(perMinute > 0) || !Number.isFinite(perMinute)) throw new RangeError(`Expected a rate above 0 per minute, got ${perMinute}`);
  return 60_000 / perMinute;
}
