import { studentTTwoSidedPValue } from './student-t.js';
import { scaleToUnit, sum } from './unit-scale.js';

export interface TTestResult {
  /** t = mean / (s / √n); 0 when there is no test, ±Infinity when every delta is the same non-zero number. */
  t: number;
  /** n - 1; 0 when n < 2. */
  degreesOfFreedom: number;
  /** Two-sided: P(|T| >= |t|) under Student's t with n - 1 degrees of freedom. */
  pValue: number;
}

/**
 * Student's paired t-test on the deltas d_i = b_i - a_i (a one-sample t-test
 * of mean 0), two-sided:
 *
 *   mean = (1/n) Σ d_i
 *   s²   = Σ (d_i - mean)² / (n - 1)        (sample variance)
 *   t    = mean / √(s² / n),   ν = n - 1
 *   p    = P(|T_ν| >= |t|) = I_(ν / (ν + t²))(ν/2, 1/2)
 *
 * It assumes the deltas are roughly normal; the randomization test does not
 * and is the one to decide on; this one is for comparison with papers that
 * report it.
 *
 * Edge cases, none NaN:
 * - n < 2 (no variance to estimate): t = 0, ν = 0, p = 1: no evidence either way;
 * - s² = 0 with mean = 0 (every delta 0): t = 0, p = 1;
 * - s² = 0 with mean != 0 (every pair moved by the same amount): t = ±Infinity
 *   (the sign of the mean), p = 0, the limit as the spread goes to 0.
 * The deltas are scaled into [-1, 1] first (t does not change), so huge
 * deltas cannot overflow. A NaN or infinite delta is a bug and throws.
 */
export function pairedTTest(deltas: readonly number[]): TTestResult {
  const { values } = scaleToUnit(deltas, 'deltas');
  const count = values.length;
  if (count < 2) return { t: 0, degreesOfFreedom: 0, pValue: 1 };
  const degreesOfFreedom = count - 1;
  const mean = sum(values) / count;
  let squaredDeviations = 0;
  for (const value of values) squaredDeviations += (value - mean) ** 2;
  if (squaredDeviations === 0) {
    return mean === 0 ? { t: 0, degreesOfFreedom, pValue: 1 } : { t: Math.sign(mean) * Infinity, degreesOfFreedom, pValue: 0 };
  }
  const t = mean / Math.sqrt(squaredDeviations / degreesOfFreedom / count);
  return { t, degreesOfFreedom, pValue: studentTTwoSidedPValue(t, degreesOfFreedom) };
}
