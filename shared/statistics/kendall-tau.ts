import { definedAs, undefinedBecause, type Statistic } from './statistic.js';

/**
 * Kendall's tau-b (Kendall 1945) between two paired lists x and y of n
 * values, accounting for ties as SciPy's `kendalltau` (its default, tau-b)
 * does. Over the n(n - 1)/2 pairs of positions (i, j):
 *
 *   C = pairs ordered the same way in x and y (concordant),
 *   D = pairs ordered opposite ways (discordant),
 *   n0 = n(n - 1)/2, n1 = Σ t(t - 1)/2 over the groups of t tied values of x,
 *   n2 = the same over y,
 *   τ_b = (C - D) / √((n0 - n1)(n0 - n2))
 *
 * A pair tied in x or in y is neither concordant nor discordant; the
 * denominator removes the tied pairs of each list from the pair count, so
 * τ_b is 1 when y orders the values exactly as x does, even with ties
 * shared by both. Values compare as numbers (equal means tied).
 *
 * Undefined (a reason, never NaN) with fewer than 2 pairs of values, or when
 * every value of x, or of y, is tied (n0 - n1 = 0 or n0 - n2 = 0).
 * Quadratic in n, which suits its use here: correlating a few dozen systems.
 * Lists of different lengths or holding a NaN are a bug and throw.
 */
export function kendallTauB(x: readonly number[], y: readonly number[]): Statistic {
  assertPaired(x, y);
  const count = x.length;
  if (count < 2) return undefinedBecause(`needs at least 2 pairs of values, got ${count}`);
  let concordant = 0;
  let discordant = 0;
  let tiedInX = 0;
  let tiedInY = 0;
  for (let first = 0; first < count; first++) {
    for (let second = first + 1; second < count; second++) {
      const signX = Math.sign((x[second] as number) - (x[first] as number));
      const signY = Math.sign((y[second] as number) - (y[first] as number));
      if (signX === 0) tiedInX++;
      if (signY === 0) tiedInY++;
      if (signX === 0 || signY === 0) continue;
      if (signX === signY) concordant++;
      else discordant++;
    }
  }
  const pairs = (count * (count - 1)) / 2;
  if (tiedInX === pairs) return undefinedBecause('every value of the first list is the same');
  if (tiedInY === pairs) return undefinedBecause('every value of the second list is the same');
  const tau = (concordant - discordant) / Math.sqrt((pairs - tiedInX) * (pairs - tiedInY));
  // Rounding of the square root can put a perfect agreement a last bit past ±1.
  return definedAs(Math.max(-1, Math.min(1, tau)));
}

/** Two lists of finite numbers of the same length; anything else is a bug of the caller. */
export function assertPaired(x: readonly number[], y: readonly number[]): void {
  if (x.length !== y.length) throw new RangeError(`Expected paired lists of the same length, got ${x.length} and ${y.length}`);
  for (const value of [...x, ...y]) {
    if (!Number.isFinite(value)) throw new RangeError(`Expected finite numbers, got ${value}`);
  }
}
