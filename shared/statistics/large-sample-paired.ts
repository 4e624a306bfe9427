import type { Interval } from './bootstrap-mean-interval.js';
import { studentTTwoSidedPValue } from './student-t.js';
import { scaleToUnit } from './unit-scale.js';

/**
 * The large-sample limits of the paired randomization test and of the
 * percentile bootstrap interval of the mean delta, for comparisons over more
 * pairs than resampling can afford (10,000 sign flips × a million pairs is
 * 1e10 draws a metric).
 *
 * Randomization test: under the null hypothesis each delta's sign is a fair
 * coin, so the sign-flipped sum S = Σ s_i d_i has mean 0 and variance Σ d_i²,
 * and by the Lindeberg central limit theorem (no single delta dominates once
 * n is in the tens of thousands and deltas are bounded, as metric values are)
 * S / √(Σ d_i²) is standard normal. The p-value is its two-sided tail at the
 * observed z = Σ d_i / √(Σ d_i²), read from Student's t with n - 1 degrees of
 * freedom, which at these n equals the normal tail to about 1e-4 of its
 * value. It is 1 when every delta is 0.
 *
 * Interval: mean ± c · s / √n with s the sample standard deviation and c the
 * two-sided critical value of Student's t at the level (n - 1 degrees of
 * freedom), the bootstrap's limit by the same theorem; clamped to [min, max]
 * as the bootstrap's bounds are.
 *
 * Deltas are scaled into [-1, 1] first (neither result changes), so no sum
 * overflows; at least two deltas are expected, finite ones.
 */
export function largeSamplePairedStatistics(deltas: readonly number[], level: number): { pValue: number; interval: Interval } {
  const { values, scale } = scaleToUnit(deltas, 'deltas');
  const count = values.length;
  if (count < 2) throw new RangeError(`Expected at least two deltas, got ${count}`);
  let sum = 0;
  let squares = 0;
  let smallest = Number.POSITIVE_INFINITY;
  let largest = Number.NEGATIVE_INFINITY;
  for (const value of values) {
    sum += value;
    squares += value * value;
    smallest = Math.min(smallest, value);
    largest = Math.max(largest, value);
  }
  if (scale === 0) return { pValue: 1, interval: { low: 0, high: 0 } };
  const degreesOfFreedom = count - 1;
  const pValue = studentTTwoSidedPValue(sum / Math.sqrt(squares), degreesOfFreedom);
  const mean = sum / count;
  let deviations = 0;
  for (const value of values) deviations += (value - mean) * (value - mean);
  const halfWidth = criticalValue(level, degreesOfFreedom) * Math.sqrt(deviations / degreesOfFreedom / count);
  const clamp = (bound: number): number => Math.min(largest * scale, Math.max(smallest * scale, bound * scale));
  return { pValue, interval: { low: clamp(mean - halfWidth), high: clamp(mean + halfWidth) } };
}

/** c with P(|T_ν| >= c) = 1 - level, by bisection (the tail falls monotonically in c). */
export function criticalValue(level: number, degreesOfFreedom: number): number {
  if (!(level > 0 && level < 1)) throw new RangeError(`Expected level to be between 0 and 1 (exclusive), got ${level}`);
  let low = 0;
  let high = 1;
  while (studentTTwoSidedPValue(high, degreesOfFreedom) > 1 - level) high *= 2;
  for (let step = 0; step < 100 && high - low > 1e-12; step++) {
    const middle = (low + high) / 2;
    if (studentTTwoSidedPValue(middle, degreesOfFreedom) > 1 - level) low = middle;
    else high = middle;
  }
  return (low + high) / 2;
}
