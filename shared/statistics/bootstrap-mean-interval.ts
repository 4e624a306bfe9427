import { typeSevenQuantile } from './quantile.js';
import { seededRandom } from './seeded-random.js';
import { scaleToUnit } from './unit-scale.js';

export interface BootstrapOptions {
  /** How many resamples to draw. Default 2,000. */
  resamples?: number;
  /** Seeds the resampling: the same values and seed give the same interval. */
  seed: number;
  /** Coverage of the interval, strictly between 0 and 1. Default 0.95. */
  level?: number;
}

export interface Interval {
  low: number;
  high: number;
}

/**
 * Percentile bootstrap confidence interval for the mean of `values` (Efron &
 * Tibshirani, An Introduction to the Bootstrap, 1993, ch. 13).
 *
 * Draw B resamples of n values with replacement (uniform indices from the
 * seeded generator), take the mean of each, sort the B means m_(1) <= ... <=
 * m_(B), and return their quantiles at q = (1 - level)/2 and 1 - q. A
 * quantile at q interpolates linearly between neighbours at position
 * h = (B - 1) q (Hyndman & Fan type 7, R's and NumPy's default):
 *
 *   Q(q) = m_(⌊h⌋+1) + (h - ⌊h⌋)(m_(⌊h⌋+2) - m_(⌊h⌋+1))
 *
 * so min(values) <= low <= high <= max(values). The values are divided by
 * their largest magnitude before resampling, so no sum overflows; the
 * bounds are clamped to [min, max] to undo the last-bit rounding of that.
 *
 * Edge cases: no value gives undefined (there is no mean); one value v gives
 * {low: v, high: v}. A NaN or infinite value, resamples that are not an
 * integer from 1 up, or a level outside (0, 1) is a bug and throws.
 */
export function bootstrapMeanInterval(values: readonly number[], options: BootstrapOptions): Interval | undefined {
  const resamples = options.resamples ?? 2000;
  const level = options.level ?? 0.95;
  if (!Number.isInteger(resamples) || resamples < 1)
    throw new RangeError(`Expected resamples to be an integer from 1 and up, got ${resamples}`);
  if (!(level > 0 && level < 1)) throw new RangeError(`Expected level to be between 0 and 1 (exclusive), got ${level}`);
  const { values: scaled, scale } = scaleToUnit(values, 'values');
  const count = scaled.length;
  if (count === 0) return undefined;
  if (count === 1) return { low: values[0] as number, high: values[0] as number };
  if (scale === 0) return { low: 0, high: 0 };

  // A typed array: the inner loops below read it millions of times a report (60 sets of 5 to 418 values: 430 ms before, 225 ms after, the intervals equal).
  const unit = Float64Array.from(scaled);
  const means = new Float64Array(resamples);
  const drawn = drawnIndices(options.seed, count, resamples);
  if (drawn !== undefined) sumResamples(unit, drawn, means);
  else {
    // Drawing the indices is most of the time here, not summing them: one resample at a time.
    const random = seededRandom(options.seed);
    const indices = new Uint32Array(count);
    for (let draw = 0; draw < resamples; draw++) {
      random.fillBelow(count, indices);
      let total = 0;
      for (let index = 0; index < count; index++) total += unit[indices[index] as number] as number;
      means[draw] = total / count;
    }
  }
  means.sort();
  const tail = (1 - level) / 2;
  // Scaled means lie in [-1, 1], so multiplying back cannot overflow; dividing by the scale and
  // multiplying back can move a bound by its last bit, past the smallest or largest value: clamp.
  let smallest = Number.POSITIVE_INFINITY;
  let largest = Number.NEGATIVE_INFINITY;
  for (const value of values) {
    smallest = Math.min(smallest, value);
    largest = Math.max(largest, value);
  }
  const clamp = (bound: number): number => Math.min(largest, Math.max(smallest, bound * scale));
  return { low: clamp(typeSevenQuantile(means, tail)), high: clamp(typeSevenQuantile(means, 1 - tail)) };
}

/** Indices kept for reuse at most: 4 MiB of them. */
const MOST_KEPT_DRAWS = 1 << 20;
/** The last few index sets drawn, by seed, count and resamples. */
const kept = new Map<string, Uint32Array>();

/**
 * Every resample's indices of one seed, count and number of resamples, one
 * resample after another: the draws depend on nothing else, so a report's
 * intervals of every metric over the same cases (a fixed seed) share them,
 * drawn once. The same numbers as drawing each resample in turn (fillBelow
 * continues the one stream). Undefined past MOST_KEPT_DRAWS: such a set is
 * drawn a resample at a time instead.
 */
function drawnIndices(seed: number, count: number, resamples: number): Uint32Array | undefined {
  if (count * resamples > MOST_KEPT_DRAWS) return undefined;
  const key = `${seed} ${count} ${resamples}`;
  let indices = kept.get(key);
  if (indices === undefined) {
    indices = new Uint32Array(count * resamples);
    seededRandom(seed).fillBelow(count, indices);
    if (kept.size >= 8) kept.delete(kept.keys().next().value as string);
    kept.set(key, indices);
  }
  return indices;
}

/**
 * means[k] = the mean of resample k, whose indices are drawn[k * count ...],
 * for every resample means has room for. Four resamples at a time, each summed as
 * drawn, left to right (the same terms in the same order as summing the
 * resample alone): four chains of additions that do not wait on one another,
 * which the processor runs side by side. 400 values, 2,000 resamples: 1.16 ms
 * one resample at a time, 0.71 ms four.
 */
function sumResamples(unit: Float64Array, drawn: Uint32Array, means: Float64Array): void {
  const count = unit.length;
  const resamples = means.length;
  let resample = 0;
  for (; resample + 4 <= resamples; resample += 4) {
    const start = resample * count;
    let total0 = 0;
    let total1 = 0;
    let total2 = 0;
    let total3 = 0;
    for (let index = start, end = start + count; index < end; index++) {
      total0 += unit[drawn[index] as number] as number;
      total1 += unit[drawn[index + count] as number] as number;
      total2 += unit[drawn[index + 2 * count] as number] as number;
      total3 += unit[drawn[index + 3 * count] as number] as number;
    }
    means[resample] = total0 / count;
    means[resample + 1] = total1 / count;
    means[resample + 2] = total2 / count;
    means[resample + 3] = total3 / count;
  }
  for (; resample < resamples; resample++) {
    let total = 0;
    for (let index = resample * count, end = index + count; index < end; index++) total += unit[drawn[index] as number] as number;
    means[resample] = total / count;
  }
}
