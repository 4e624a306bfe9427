/** The fewest requests admitted between two refusals for a span to tell a rate. */
const LEAST_ADMITTED = 3;
/** Attempts remembered in one span at most; past it, its count joins those before and a new span opens. */
const LONGEST_SPAN_ATTEMPTS = 4_096;

/** A limit's rate as measured between refusals, per minute: the count's own error is one request either way. */
export interface GrantedEstimate {
  readonly perMinute: number;
  /** With one request fewer than were counted: the slowest the limit may be, as far as the spans tell. */
  readonly leastPerMinute: number;
  /** With one request more: the fastest it may be. */
  readonly mostPerMinute: number;
}

/**
 * The rate a rate-limited server grants, measured between its refusals.
 * A refusal says the server's allowance was spent when the request came;
 * between two such moments the server admitted exactly what its limit let
 * back in meanwhile, whatever was sent and however large a burst it allows:
 * for a token bucket, the tokens that came in (to within one); for a
 * sliding window, the requests that left it (to within its size, so the
 * longer the span, the closer). So the requests admitted between the first
 * refusal of a span and its latest, over the time between them, is the
 * limit's own rate, where the share refused in a round is only what was
 * sent less what came back, a burst and the allowance saved up included.
 *
 * A span opens when a refusal comes back while none is open, and counts
 * the attempts started after that, by their starts (the governor grants in
 * time order): a first burst, all started before its first refusal
 * returned, never counts as the limit's rate. An attempt started before the
 * latest refusal and not yet answered counts as admitted: a limit refuses
 * at once, so one still out when a later one was refused got in (its answer
 * may take the model's whole latency). A span ends when the governor says
 * (a round without a refusal: the allowance may have filled up since), and
 * its count joins those of the spans before, so the measure grows closer
 * with every span, until a span disagrees with them by more than its count
 * allows (the limit changed), when it starts again from that span alone.
 */
export class GrantedRate {
  /** Starts of the attempts started since the span opened, in order. */
  private starts: number[] = [];
  /** Starts of the refused ones among them, in order. */
  private refusals: number[] = [];
  /** When the span opened: the first refusal's answer; undefined while none is open. */
  private openedAt: number | undefined;
  /** What the spans before this one counted. */
  private before = { admitted: 0, milliseconds: 0 };

  /** An attempt starts now. */
  started(now: number): void {
    if (this.openedAt === undefined) return;
    this.starts.push(now);
    if (this.starts.length > LONGEST_SPAN_ATTEMPTS) {
      this.end();
      this.openedAt = now;
    }
  }

  /** The attempt started at `startedAt` was refused by the limit, and the refusal came back now. */
  refused(startedAt: number, now: number): void {
    if (this.openedAt === undefined) {
      this.openedAt = now;
      return;
    }
    if (startedAt <= this.openedAt) return;
    this.refusals.splice(upperBound(this.refusals, startedAt), 0, startedAt);
  }

  /** The rate measured over the spans so far; undefined while they count too few to tell. */
  estimate(): GrantedEstimate | undefined {
    const { admitted, milliseconds } = this.counted();
    if (admitted < LEAST_ADMITTED || !(milliseconds > 0)) return undefined;
    const perRequest = 60_000 / milliseconds;
    return { perMinute: admitted * perRequest, leastPerMinute: (admitted - 1) * perRequest, mostPerMinute: (admitted + 1) * perRequest };
  }

  /**
   * Whether the span's refusals follow the timing of what was let through, as
   * a limit's do: an attempt right after one let through is refused more
   * often than one after a refusal (whose request took none of the allowance).
   * Refusals at random come at the same share after either, and so do a
   * limit's in a span too short to tell (true only beyond `errors` times the
   * sampling error of the difference).
   */
  timed(errors = 2): boolean {
    const { through, refused } = this.transitions();
    if (through.of === 0 || refused.of === 0) return false;
    const pooled = (through.refused + refused.refused) / (through.of + refused.of);
    const samplingError = Math.sqrt(pooled * (1 - pooled) * (1 / through.of + 1 / refused.of));
    return through.refused / through.of - refused.refused / refused.of > errors * samplingError;
  }

  /** Over the span, the attempts after one let through and after one refused, and how many of each were refused. */
  transitions(): Record<'through' | 'refused', { refused: number; of: number }> {
    const after = { through: { refused: 0, of: 0 }, refused: { refused: 0, of: 0 } };
    const last = this.refusals.at(-1);
    if (this.openedAt === undefined || last === undefined) return after;
    let refusal = 0;
    let previous: 'through' | 'refused' | undefined;
    for (const start of this.starts) {
      if (start > last) break;
      while ((this.refusals[refusal] ?? Number.POSITIVE_INFINITY) < start) refusal++;
      const refused = this.refusals[refusal] === start;
      if (refused) refusal++;
      if (previous !== undefined) {
        after[previous].of++;
        if (refused) after[previous].refused++;
      }
      previous = refused ? 'refused' : 'through';
    }
    return after;
  }

  /** Ends the span, its count kept with those before: the allowance may fill up from here. */
  end(): void {
    this.before = this.counted();
    this.openedAt = undefined;
    this.starts = [];
    this.refusals = [];
  }

  /** The spans before with the open one, or the open one alone when the two disagree. */
  private counted(): { admitted: number; milliseconds: number } {
    const span = this.span();
    if (span === undefined) return this.before;
    const { before } = this;
    // The rate before lies outside what the span's count allows, give or take one request: the limit has changed.
    const rateBefore = before.admitted / before.milliseconds;
    const agrees =
      before.milliseconds > 0 &&
      rateBefore >= (span.admitted - 1) / span.milliseconds &&
      rateBefore <= (span.admitted + 1) / span.milliseconds;
    if (!agrees && span.admitted >= LEAST_ADMITTED) return span;
    return { admitted: before.admitted + span.admitted, milliseconds: before.milliseconds + span.milliseconds };
  }

  /** The open span's count, from its opening to its latest refusal. */
  private span(): { admitted: number; milliseconds: number } | undefined {
    const { openedAt } = this;
    const last = this.refusals.at(-1);
    if (openedAt === undefined || last === undefined || !(last > openedAt)) return undefined;
    return { admitted: upperBound(this.starts, last) - this.refusals.length, milliseconds: last - openedAt };
  }
}

/** The number of entries of a sorted list at or below `value`. */
function upperBound(sorted: readonly number[], value: number): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((sorted[middle] ?? 0) <= value) low = middle + 1;
    else high = middle;
  }
  return low;
}
