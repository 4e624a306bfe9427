import type { Result } from '../schema/result.js';
import { typeSevenQuantile } from './quantile.js';
import { seededRandom } from './seeded-random.js';

export interface PercentileBootstrapOptions {
  /** How many resamples to draw, an integer from 1 up. */
  readonly resamples: number;
  /** Seeds the resampling: the same inputs and seed give the same interval. */
  readonly seed: number;
  /** Coverage of the interval, strictly between 0 and 1. Default 0.95. */
  readonly level?: number;
}

export interface ResampledInterval {
  readonly low: number;
  readonly high: number;
  /** The resamples on which the statistic was defined: the interval's quantiles are over these. */
  readonly resamples_used: number;
}

/** The interval, or why there is none (`error`). */
export type IntervalResult = Result<ResampledInterval>;

/**
 * Percentile bootstrap interval (Efron & Tibshirani 1993, ch. 13) of any
 * statistic of n resampling units (labelled pairs, topics):
 *
 * 1. draw B resamples, each n unit indices drawn uniformly with replacement
 *    from the seeded generator (n draws per resample, in order);
 * 2. evaluate `statistic` on each resample's indices; a resample on which it
 *    is undefined (it returns undefined: kappa of a resample where chance
 *    agreement is 1, tau of a resample where every system ties) is left out;
 * 3. return the type-7 quantiles (quantile.ts) at (1 - level)/2 and
 *    1 - (1 - level)/2 of the B' defined values, and B' itself.
 *
 * No unit, or no resample on which the statistic is defined, gives a reason
 * instead of an interval. A NaN from the statistic, resamples that are not an
 * integer from 1 up, or a level outside (0, 1) is a bug and throws.
 */
export function percentileBootstrapInterval(
  unitCount: number,
  statistic: (indices: Int32Array) => number | undefined,
  options: PercentileBootstrapOptions,
): IntervalResult {
  return percentileBootstrapIntervals(unitCount, 1, (indices) => [statistic(indices)], options)[0] as IntervalResult;
}

/**
 * The same for several statistics of the same units at once, on the same
 * resamples (one draw of indices serves them all, which is what makes it
 * cheaper than one call per statistic): `statistics` returns the
 * `statisticCount` values of a resample, in a fixed order, and the result
 * holds one interval per statistic in that order.
 */
export function percentileBootstrapIntervals(
  unitCount: number,
  statisticCount: number,
  statistics: (indices: Int32Array) => readonly (number | undefined)[],
  options: PercentileBootstrapOptions,
): IntervalResult[] {
  const level = options.level ?? 0.95;
  if (!Number.isInteger(options.resamples) || options.resamples < 1) {
    throw new RangeError(`Expected resamples to be an integer from 1 and up, got ${options.resamples}`);
  }
  if (!(level > 0 && level < 1)) throw new RangeError(`Expected level to be between 0 and 1 (exclusive), got ${level}`);
  if (unitCount === 0) return new Array<IntervalResult>(statisticCount).fill({ ok: false, error: 'nothing to resample' });
  const random = seededRandom(options.seed);
  const indices = new Int32Array(unitCount);
  const values: number[][] = Array.from({ length: statisticCount }, () => []);
  for (let draw = 0; draw < options.resamples; draw++) {
    for (let index = 0; index < unitCount; index++) indices[index] = random.nextBelow(unitCount);
    const resampled = statistics(indices);
    for (const [position, value] of resampled.entries()) {
      if (value === undefined) continue;
      if (Number.isNaN(value)) throw new RangeError('Expected the resampled statistic to be a number or undefined, got NaN');
      values[position]?.push(value);
    }
  }
  const tail = (1 - level) / 2;
  return values.map((defined): IntervalResult => {
    if (defined.length === 0) return { ok: false, error: `the statistic is undefined on every one of the ${options.resamples} resamples` };
    const sorted = Float64Array.from(defined).sort();
    return {
      ok: true,
      value: { low: typeSevenQuantile(sorted, tail), high: typeSevenQuantile(sorted, 1 - tail), resamples_used: defined.length },
    };
  });
}
