import { regularizedIncompleteBeta } from './regularized-incomplete-beta.js';

/**
 * McNemar's test of paired yes/no outcomes (McNemar, "Note on the sampling
 * error of the difference between correlated proportions or percentages",
 * Psychometrika 12, 1947), in its exact conditional form: of the n = b + c
 * discordant pairs (b went yes → no, c no → yes), under the null hypothesis
 * each is as likely to go either way, so b ~ Binomial(n, 1/2), and
 *
 *   p = min(1, 2 · P(X <= min(b, c))),  X ~ Binomial(n, 1/2)
 *
 * the two-sided p-value of the binomial test (SciPy's `binomtest(min(b, c),
 * b + c, 0.5)` gives the same). It is exact at any count, small counts
 * included, where the chi-square form with its continuity correction is a
 * poor approximation (Fagerland, Lydersen & Laake, "The McNemar test for
 * binary matched-pairs data", BMC Medical Research Methodology 13:91, 2013);
 * at large counts it stays exact and a little conservative. The tail is the
 * regularized incomplete beta function: P(X <= k) = I_{1/2}(n - k, k + 1).
 *
 * No discordant pair (b = c = 0) gives p = 1: nothing changed to test.
 * Counts that are not whole numbers from 0 up are a bug of the caller, and throw.
 */
export function mcNemarExactTest(yesToNo: number, noToYes: number): number {
  for (const [name, count] of [
    ['yesToNo', yesToNo],
    ['noToYes', noToYes],
  ] as const) {
    if (!Number.isInteger(count) || count < 0) throw new RangeError(`Expected ${name} to be a whole number from 0 up, got ${count}`);
  }
  const discordant = yesToNo + noToYes;
  const fewer = Math.min(yesToNo, noToYes);
  if (discordant === 0 || 2 * fewer === discordant) return 1;
  const tail = regularizedIncompleteBeta(0.5, discordant - fewer, fewer + 1);
  return Math.min(1, 2 * tail);
}
