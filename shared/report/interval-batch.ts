import type { Interval } from '../statistics/bootstrap-mean-interval.js';
import { BOOTSTRAP_LIMIT, meanInterval, type IntervalSource } from './metric-statistics.js';

/** meanInterval of each list, in order: computed by the caller's means, such as several threads at once. */
export type MeanIntervals = (lists: readonly Float64Array[]) => Promise<(Interval | undefined)[]>;

/**
 * What `build` returns with every interval it asks for (an IntervalSource)
 * computed ahead in one batch by `compute`: `build` runs once to learn which
 * value lists it asks about, in which order, and once more to be served their
 * intervals in that order. Only the bootstraps (up to BOOTSTRAP_LIMIT values,
 * 1,000 resamples each) go to `compute`; the normal approximations above it
 * cost one pass and are computed here, so no million-value list is copied.
 * The intervals are meanInterval's, so the result is what `build` gives
 * with meanInterval itself.
 */
export async function withIntervalBatch<Result>(build: (intervalOf: IntervalSource) => Result, compute: MeanIntervals): Promise<Result> {
  const asked: Float64Array[] = [];
  build((values) => {
    asked.push(Float64Array.from(values));
    return undefined;
  });
  const batched = asked.filter((values) => values.length > 1 && values.length <= BOOTSTRAP_LIMIT);
  const computed = await compute(batched);
  if (computed.length !== batched.length) throw new Error(`Expected ${batched.length} intervals from the batch, got ${computed.length}`);
  const intervals = new Map(batched.map((values, index) => [values, computed[index]] as const));
  let next = 0;
  const result = build((values) => {
    const known = asked[next++];
    if (known === undefined || known.length !== values.length) throw new Error(`The second pass asked for interval ${next} of ${values.length} values, the first for ${known?.length ?? 'none'}`);
    return intervals.has(known) ? intervals.get(known) : meanInterval(known);
  });
  if (next !== asked.length) throw new Error(`The second pass asked for ${next} intervals, the first for ${asked.length}`);
  return result;
}
