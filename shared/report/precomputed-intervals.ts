import type { Interval } from '../statistics/bootstrap-mean-interval.js';
import { BOOTSTRAP_LIMIT, meanInterval, type IntervalSource } from './metric-statistics.js';

/** meanInterval of each list, in order: computed by the caller's means, such as several threads at once. */
export type MeanIntervals = (lists: readonly Float64Array[]) => Promise<(Interval | undefined)[]>;

/**
 * What `build` returns with every interval it asks for (an IntervalSource)
 * computed ahead, all at once, by `compute`: `build` runs once to learn which
 * value lists it asks about, in which order, and once more to be served their
 * intervals in that order. Only the bootstraps (up to BOOTSTRAP_LIMIT values,
 * 1,000 resamples each) go to `compute`, as copies; the normal
 * approximations above it cost one pass and are computed here in the second
 * pass, from the values themselves, so no million-value list is copied.
 * The intervals are meanInterval's, so the result is what `build` gives
 * with meanInterval itself.
 */
export async function withPrecomputedIntervals<Result>(
  build: (intervalOf: IntervalSource) => Result,
  compute: MeanIntervals,
): Promise<Result> {
  // Each list asked about, in order: a copy of it when it goes to `compute`, else only its length.
  const asked: (Float64Array | number)[] = [];
  build((values) => {
    asked.push(values.length > 1 && values.length <= BOOTSTRAP_LIMIT ? Float64Array.from(values) : values.length);
    return undefined;
  });
  const bootstrapped = asked.filter((entry): entry is Float64Array => typeof entry !== 'number');
  const computed = await compute(bootstrapped);
  if (computed.length !== bootstrapped.length)
    throw new Error(`Expected ${bootstrapped.length} intervals from compute, got ${computed.length}`);
  const intervals = new Map(bootstrapped.map((values, index) => [values, computed[index]] as const));
  let next = 0;
  const result = build((values) => {
    const known = asked[next++];
    const length = typeof known === 'number' ? known : known?.length;
    if (length !== values.length)
      throw new Error(`The second pass asked for interval ${next} of ${values.length} values, the first for ${length ?? 'none'}`);
    return typeof known === 'number' ? meanInterval(values) : intervals.get(known as Float64Array);
  });
  if (next !== asked.length) throw new Error(`The second pass asked for ${next} intervals, the first for ${asked.length}`);
  return result;
}
