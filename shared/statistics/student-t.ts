import { regularizedIncompleteBeta } from './regularized-incomplete-beta.js';

/**
 * Two-sided tail probability of Student's t distribution with ν degrees of
 * freedom: P(|T| >= |t|).
 *
 *   P(|T| >= |t|) = I_(ν / (ν + t²))(ν/2, 1/2)
 *
 * with I the regularized incomplete beta function. Checks: ν = 1 (Cauchy)
 * gives 1 - (2/π) atan|t|; ν = 2 gives 1 - |t| / √(2 + t²).
 *
 * Edge cases: t = 0 gives 1; t = ±Infinity (or t² overflowing) gives 0. NaN t,
 * or ν not positive and finite, is a bug and throws.
 */
export function studentTTwoSidedPValue(t: number, degreesOfFreedom: number): number {
  if (Number.isNaN(t)) throw new RangeError('Expected t to be a number, got NaN');
  if (!(degreesOfFreedom > 0) || !Number.isFinite(degreesOfFreedom)) {
    throw new RangeError(`Expected the degrees of freedom to be a positive finite number, got ${degreesOfFreedom}`);
  }
  const tSquared = t * t;
  if (!Number.isFinite(tSquared)) return 0;
  return regularizedIncompleteBeta(degreesOfFreedom / (degreesOfFreedom + tSquared), degreesOfFreedom / 2, 0.5);
}
