/**
 * The requests a minute a server accepted over the last second, for a
 * refusal that says nothing of the quota: attempts started in that second,
 * less those it refused. Attempts still in flight count as accepted: a
 * refusal comes at once, an answer takes its time.
 */
const SPAN_MS = 1_000;

export class AcceptedRate {
  private readonly starts: number[] = [];
  private readonly refusals: number[] = [];

  /** An attempt started at `at`. */
  attempted(at: number): void {
    this.starts.push(at);
    forgetUntil(this.starts, at - SPAN_MS);
  }

  /** The attempt started at `startedAt` was refused. */
  refused(startedAt: number): void {
    this.refusals.push(startedAt);
  }

  /** Per minute, at `now`; undefined when fewer than two were accepted, too few to tell a rate. */
  perMinute(now: number): number | undefined {
    forgetUntil(this.starts, now - SPAN_MS);
    forgetUntil(this.refusals, now - SPAN_MS);
    const accepted = this.starts.length - this.refusals.length;
    return accepted < 2 ? undefined : accepted * (60_000 / SPAN_MS);
  }
}

/** Drops the times (oldest first) at or before `time`. */
function forgetUntil(times: number[], time: number): void {
  while (times.length > 0 && (times[0] ?? time) <= time) times.shift();
}
