/** The share of attempts a rate limit may refuse before the pace is cut: room for jitter at the limit. */
export const TARGET_SHARE = 0.05;

/** A cut of the pace, to be checked by the round after it (learnt-request-pace.ts). */
export interface Check {
  /** The slowest rate (per minute) the limit was measured to grant when the pace was cut. */
  readonly accepted: number;
  /** The share refused in the round that made the cut, of so many attempts. */
  readonly share: number;
  readonly attempts: number;
  /** The first pace, measured with a first burst: the share refused then was a burst's, not a pace's. */
  readonly first?: boolean;
}

/**
 * Whether a round's share refused is the one the check's round had, to
 * within twice the sampling error of their difference: refusals at random
 * keep their share whatever the pace, where a limit's share moves with it.
 */
export function sameShare(check: Check, share: number, attempts: number): boolean {
  const pooled = (check.share * check.attempts + share * attempts) / (check.attempts + attempts);
  const samplingError = Math.sqrt(pooled * (1 - pooled) * (1 / check.attempts + 1 / attempts));
  return Math.abs(share - check.share) <= 2 * samplingError;
}

/**
 * A share refused more than half way from the floor to every attempt, and
 * beyond the target and twice the sampling error: refusals a pace cures
 * after all, a limit's met after refusals at random, or taken for them.
 */
export function beyondFloor(share: number, floor: number, attempts: number): boolean {
  return share > (1 + floor) / 2 && share > floor + TARGET_SHARE + 2 * Math.sqrt((floor * (1 - floor)) / attempts);
}
