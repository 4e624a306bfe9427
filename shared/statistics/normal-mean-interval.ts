import type { Interval } from './bootstrap-mean-interval.js';

/** Φ⁻¹(0.975): the 95% two-sided normal quantile. */
const Z_95 = 1.959963984540054;

/**
 * The normal-approximation (Wald) 95% confidence interval of the mean of
 * `values`, the large-sample limit of the percentile bootstrap interval:
 *
 *   mean ± z · s / √n,   s² = Σ (x_i - mean)² / (n - 1),   z = Φ⁻¹(0.975)
 *
 * By the central limit theorem the bootstrap distribution of the mean tends
 * to N(mean, s²/n), so for large n both intervals agree to a small fraction
 * of their width, while this one costs one pass over the values instead of
 * resamples × n draws. For yes/no values coded 1/0 it is the Wald interval of
 * a proportion. Sums are taken in the given order (deterministic); the bounds
 * are clamped to [min, max] as the bootstrap's are.
 *
 * Edge cases: no value gives undefined; one value v gives {low: v, high: v}.
 * Values must be finite (callers pass the finite values only).
 */
export function normalMeanInterval(values: ArrayLike<number>): Interval | undefined {
  const count = values.length;
  if (count === 0) return undefined;
  let smallest = Number.POSITIVE_INFINITY;
  let largest = Number.NEGATIVE_INFINITY;
  let scale = 0;
  for (let index = 0; index < count; index++) {
    const value = values[index] as number;
    smallest = Math.min(smallest, value);
    largest = Math.max(largest, value);
    scale = Math.max(scale, Math.abs(value));
  }
  if (count === 1 || scale === 0) return { low: smallest, high: largest };
  // Scaled to [-1, 1] so that no sum of squares overflows.
  let sum = 0;
  for (let index = 0; index < count; index++) sum += (values[index] as number) / scale;
  const mean = sum / count;
  let squares = 0;
  for (let index = 0; index < count; index++) {
    const deviation = (values[index] as number) / scale - mean;
    squares += deviation * deviation;
  }
  const halfWidth = Z_95 * Math.sqrt(squares / (count - 1) / count);
  const clamp = (bound: number): number => Math.min(largest, Math.max(smallest, bound * scale));
  return { low: clamp(mean - halfWidth), high: clamp(mean + halfWidth) };
}
