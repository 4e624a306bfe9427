import type { Report } from '../../schema/report.js';
import { formatAverage, formatPercentage, keyMetricTable } from '../../report/key-metrics.js';

/** One headline statistic of the report, as keyMetricTable chooses them. */
export interface KeyStatistic {
  /** The statistic's full name, such as `retrieval/ground_truth/ndcg@10/average`. */
  readonly name: string;
  /** The per-case metric it summarises, such as `retrieval/ground_truth/ndcg@10`. */
  readonly metric: string;
  /** `average`: a mean of numbers; `percentage`: the share of "yes" ratings, 0 to 1. */
  readonly kind: 'average' | 'percentage';
  /** A shorter name for headers and captions; `name` stays in titles. */
  readonly label: string;
  /** A shorter name of `metric`, for the per-query table's header. */
  readonly caseLabel: string;
}

/** One engine's value of a key statistic, with its 95% interval when the report has one. */
export interface StatisticValue {
  readonly value: number;
  readonly count: number | undefined;
  readonly interval: { readonly low: number; readonly high: number } | undefined;
}

export interface KeyStatistics {
  readonly engines: readonly string[];
  readonly statistics: readonly KeyStatistic[];
}

const SUFFIX = /\/(average|percentage)$/;

/** The engines and key statistics of a report, both in keyMetricTable's order. */
export function keyStatistics(report: Report): KeyStatistics {
  const table = keyMetricTable(report);
  const parsed = table.rows.map((row) => {
    const match = SUFFIX.exec(row.metric);
    const kind = match?.[1] === 'percentage' ? ('percentage' as const) : ('average' as const);
    return { name: row.metric, metric: row.metric.replace(SUFFIX, ''), kind };
  });
  // A label names the per-case metric, or the whole statistic where one metric has two (safety's rating:
  // percentage and average).
  const metricCounts = new Map<string, number>();
  for (const statistic of parsed) metricCounts.set(statistic.metric, (metricCounts.get(statistic.metric) ?? 0) + 1);
  const labels = shortLabels(
    parsed.map((statistic) => ((metricCounts.get(statistic.metric) ?? 0) > 1 ? statistic.name : statistic.metric)),
  );
  const caseLabels = shortLabels(parsed.map((statistic) => statistic.metric));
  const statistics = parsed.map((statistic, index) => ({
    ...statistic,
    label: labels[index] ?? statistic.name,
    caseLabel: caseLabels[index] ?? statistic.metric,
  }));
  return { engines: table.engines, statistics };
}

/** The names without their scope (`retrieval/`, `response/`), unless two different names would then read the same. */
function shortLabels(names: readonly string[]): string[] {
  const short = names.map((name) => name.replace(/^[^/]+\//, ''));
  const distinct = (values: readonly string[]) => new Set(values).size;
  return distinct(short) === distinct(names) ? short : [...names];
}

/**
 * One key statistic per per-case metric, in keyStatistics' order: the
 * columns of the per-query table and the metrics its excerpt ranks by. A
 * yes/no rating summarised under two names (safety's percentage and average,
 * the same share) is one metric; its percentage stands for it.
 */
export function perCaseStatistics(keys: KeyStatistics): KeyStatistic[] {
  const byMetric = new Map<string, KeyStatistic>();
  for (const statistic of keys.statistics) {
    if (!byMetric.has(statistic.metric) || statistic.kind === 'percentage') byMetric.set(statistic.metric, statistic);
  }
  return [...byMetric.values()];
}

/**
 * An engine's value of a statistic: undefined when the engine has none. The
 * interval comes from `<statistic>/ci_low` and `<statistic>/ci_high` (such as
 * `.../ndcg@10/average/ci_low`, as the report writes them) and is left out
 * unless both are there.
 */
export function statisticValue(report: Report, engine: string, statistic: KeyStatistic): StatisticValue | undefined {
  const values = Object.hasOwn(report.engines, engine) ? report.engines[engine] : undefined;
  const read = (name: string): number | undefined => (values !== undefined && Object.hasOwn(values, name) ? values[name] : undefined);
  const value = read(statistic.name);
  if (value === undefined) return undefined;
  const low = read(`${statistic.name}/ci_low`);
  const high = read(`${statistic.name}/ci_high`);
  return {
    value,
    count: read(`${statistic.metric}/count`),
    interval: low !== undefined && high !== undefined ? { low, high } : undefined,
  };
}

/** A value as the summary tables show it: 0.7500, or 62.5% for a percentage. */
export function formatValue(statistic: KeyStatistic, value: number): string {
  return statistic.kind === 'percentage' ? formatPercentage(value) : formatAverage(value);
}

/** An interval, shorter than the value it brackets: [0.70, 0.80], or [55.0%, 70.0%]. */
export function formatInterval(statistic: KeyStatistic, interval: { readonly low: number; readonly high: number }): string {
  const format = statistic.kind === 'percentage' ? formatPercentage : (bound: number) => bound.toFixed(2);
  return `[${format(interval.low)}, ${format(interval.high)}]`;
}
