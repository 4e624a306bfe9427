import { ratingSummariesOf } from '../judges/rating-summaries.js';
import type { CaseResult } from '../schema/run-records.js';
import { bootstrapMeanInterval, type Interval } from '../statistics/bootstrap-mean-interval.js';
import { normalMeanInterval } from '../statistics/normal-mean-interval.js';
import { typeSevenQuantile } from '../statistics/quantile.js';
import { emptySegment, finiteValues, foldEngineMetrics, verdictValues, type MetricColumn } from './metric-columns.js';
import { compareText, sortedRecord } from './ordering.js';

const RATING = '/rating';
/** An engine's wall time per case, in milliseconds: summarised by percentiles, as latency is. */
export const ENGINE_LATENCY = 'engine/latency_ms';
/** An engine's attempts per case, failed ones included: usage, so summed, and never averaged (an average would be compared as a score). */
export const ENGINE_ATTEMPTS = 'engine/attempts';
const ERROR_MESSAGE = '/error_message';

/**
 * One engine's statistics over the evaluated cases, `<metric>/<statistic>` ->
 * a finite number, keys sorted. `results` must already be in case-id order:
 * sums are taken in that order so that the same cases give the same bits.
 * (The reducer gets the same numbers from columns it folds as it streams the
 * results: see `columnStatistics`.)
 *
 * A case counts for a metric only where it has the metric (ground-truth
 * metrics exist on labelled cases only). Per metric name M:
 * - M ends in `/error_message`: `<prefix>/error_count` = cases with a message
 *   (a string; null means no error);
 * - M ends in `/rating` and some value is "yes" or "no": `M/percentage` = share
 *   of "yes" (0 to 1) among the cases rated "yes" or "no", and `M/count` = how
 *   many those are; a judge that names this share otherwise as well (safety:
 *   `M/average`, the mean of yes = 1 and no = 0) gets it under each name
 *   (ratingSummariesOf);
 * - otherwise M ends in `/rating` or some value is a number: `M/count` = cases
 *   where M is a finite number, and `M/average` = their mean, left out when
 *   there is none (never 0 or NaN in its place);
 * - M is `engine/latency_ms` (a live engine's wall time): `M/count`, `M/p50`,
 *   `M/p95` (type-7 quantiles) and `M/max`, without an interval;
 * - M is `engine/attempts` (a live engine's attempts, failed ones included):
 *   `M/count`, `M/total` and `M/max`;
 * - anything else (per-chunk lists, rationales, other texts) is not aggregated.
 * Every percentage and average also gets a 95% interval over the cases,
 * `M/.../ci_low` and `ci_high`: up to BOOTSTRAP_LIMIT values a percentile
 * bootstrap (1,000 resamples, a fixed seed, so the same cases give the same
 * interval); above it the normal approximation mean ± 1.96 s/√n, which the
 * bootstrap converges to and which costs one pass instead of 1,000 × n draws
 * (see normalMeanInterval).
 */
export function engineStatistics(results: readonly CaseResult[], engine: string): Record<string, number> {
  const segment = emptySegment(results.length);
  for (const [slot, result] of results.entries()) {
    const metrics = Object.hasOwn(result.engines, engine) ? result.engines[engine] : undefined;
    if (metrics !== undefined) foldEngineMetrics(segment, slot, engine, metrics);
  }
  const columns = segment.engines.get(engine) ?? new Map<string, MetricColumn>();
  return columnStatistics(new Map([...columns].map(([name, column]) => [name, [column]] as const)));
}

/** Where a statistic's 95% interval comes from: meanInterval of its values, or the same computed ahead (precomputed-intervals.ts). */
export type IntervalSource = (values: ArrayLike<number>) => Interval | undefined;

/**
 * Statistics of one engine from its columns: metric -> its columns over
 * consecutive segments, in case order. Every interval is asked of
 * `intervalOf`, in the order of the metric names, so a caller can compute
 * them all ahead, several at once, and serve them in that order.
 */
export function columnStatistics(
  columnsByMetric: ReadonlyMap<string, readonly MetricColumn[]>,
  intervalOf: IntervalSource = meanInterval,
): Record<string, number> {
  const names = [...columnsByMetric.keys()].sort(compareText);
  return sortedRecord(names.flatMap((name) => statisticsOf(name, columnsByMetric.get(name) ?? [], intervalOf)));
}

/** Above this many values an interval is the normal approximation rather than the bootstrap. */
export const BOOTSTRAP_LIMIT = 20_000;

function statisticsOf(name: string, columns: readonly MetricColumn[], intervalOf: IntervalSource): [string, number][] {
  if (name.endsWith(ERROR_MESSAGE)) {
    const prefix = name.slice(0, -ERROR_MESSAGE.length);
    return [[`${prefix}/error_count`, columns.reduce((total, column) => total + column.errorCount, 0)]];
  }
  if (name === ENGINE_LATENCY) return latencyStatistics(finiteValues(columns));
  if (name === ENGINE_ATTEMPTS) return attemptStatistics(finiteValues(columns));
  const isRating = name.endsWith(RATING);
  const verdicts = isRating ? verdictValues(columns) : new Float64Array(0);
  if (verdicts.length > 0) {
    const yes = verdicts.reduce((total, verdict) => total + verdict, 0);
    // One interval for every name of the share: they are the same number over the same verdicts.
    const interval = intervalOf(verdicts);
    const shares = ratingSummariesOf(name).flatMap((summary) => withInterval(`${name}/${summary}`, yes / verdicts.length, interval));
    return [...shares, [`${name}/count`, verdicts.length]];
  }
  if (isRating || columns.some((column) => column.numberSeen)) {
    const numbers = finiteValues(columns);
    const average = mean(numbers);
    const statistics: [string, number][] = [[`${name}/count`, numbers.length]];
    if (average !== undefined)
      statistics.push([`${name}/average`, average], ...withInterval(`${name}/average`, undefined, intervalOf(numbers)));
    return statistics;
  }
  return [];
}

function latencyStatistics(values: Float64Array): [string, number][] {
  const sorted = values.sort((left, right) => left - right);
  if (sorted.length === 0) return [[`${ENGINE_LATENCY}/count`, 0]];
  return [
    [`${ENGINE_LATENCY}/count`, sorted.length],
    [`${ENGINE_LATENCY}/p50`, typeSevenQuantile(sorted, 0.5)],
    [`${ENGINE_LATENCY}/p95`, typeSevenQuantile(sorted, 0.95)],
    [`${ENGINE_LATENCY}/max`, sorted[sorted.length - 1] as number],
  ];
}

function attemptStatistics(values: Float64Array): [string, number][] {
  const total = values.reduce((sum, value) => sum + value, 0);
  const statistics: [string, number][] = [
    [`${ENGINE_ATTEMPTS}/count`, values.length],
    [`${ENGINE_ATTEMPTS}/total`, total],
  ];
  // A reduce, not Math.max(...values): a million cases would overflow the call's arguments.
  return values.length === 0
    ? statistics
    : [...statistics, [`${ENGINE_ATTEMPTS}/max`, values.reduce((highest, value) => Math.max(highest, value))]];
}

const BOOTSTRAP = { resamples: 1000, seed: 20_261_122, level: 0.95 };

/** The 95% interval of the mean of `values`: bootstrap up to BOOTSTRAP_LIMIT values, normal approximation above. */
export function meanInterval(values: ArrayLike<number>): Interval | undefined {
  return values.length <= BOOTSTRAP_LIMIT ? bootstrapMeanInterval(Array.from(values), BOOTSTRAP) : normalMeanInterval(values);
}

/** The statistic (when its value is given) and its interval's bounds (when there is one). */
function withInterval(statistic: string, value: number | undefined, interval: Interval | undefined): [string, number][] {
  const entries: [string, number][] = value === undefined ? [] : [[statistic, value]];
  if (interval !== undefined) entries.push([`${statistic}/ci_low`, interval.low], [`${statistic}/ci_high`, interval.high]);
  return entries;
}

/**
 * The mean of finite numbers, summed in the given order; undefined for none.
 * Should the plain sum overflow (values near ±1.8e308), the terms are divided
 * by the count before they are added, which keeps every partial sum within
 * the largest value's magnitude; a mean that is still not finite is left out.
 */
export function mean(numbers: ArrayLike<number>): number | undefined {
  if (numbers.length === 0) return undefined;
  let sum = 0;
  for (let index = 0; index < numbers.length; index++) sum += numbers[index] as number;
  let average = sum / numbers.length;
  if (!Number.isFinite(average)) {
    average = 0;
    for (let index = 0; index < numbers.length; index++) average += (numbers[index] as number) / numbers.length;
  }
  return Number.isFinite(average) ? average : undefined;
}
