import type { Report } from '../schema/report.js';
import { engineCaseCount } from './engine-cases.js';
import { compareText } from './ordering.js';

const AVERAGE = '/average';
const PERCENTAGE = '/percentage';

/** The headline numbers of a report: one row per key statistic, one cell per engine. */
export interface KeyMetricTable {
  readonly engines: readonly string[];
  readonly rows: readonly KeyMetricRow[];
}

export interface KeyMetricRow {
  /** The statistic's full name, such as `retrieval/ground_truth/ndcg@10/average`. */
  readonly metric: string;
  /** Formatted, one per engine in `engines` order; "-" where the engine has no value. */
  readonly cells: readonly string[];
}

/**
 * The key statistics are the headline averages and percentages (see
 * isKeyStatistic; counts, error counts and judge details stay in report.json). Averages read with 4 decimals
 * (`0.7500`), percentages as 0-100% with one decimal (`62.5%`). A value over
 * fewer cases than the engine has (engineCaseCount) says how many,
 * `0.7500 (n=3)`, so that an average over the few labelled cases, or over the
 * cases where a judge's judgment did not end in error, is not read as one over
 * the run.
 */
export function keyMetricTable(report: Report): KeyMetricTable {
  const engines = Object.keys(report.engines).sort(compareText);
  const metrics = new Set<string>();
  for (const engine of engines) {
    for (const name of Object.keys(report.engines[engine] ?? {})) if (isKeyStatistic(name)) metrics.add(name);
  }
  const caseCounts = engines.map((engine) => engineCaseCount(report.engines[engine] ?? {}, report.cases.evaluated));
  const rows = [...metrics].sort(compareText).map((metric) => ({
    metric,
    cells: engines.map((engine, index) => formatCell(report.engines[engine] ?? {}, metric, caseCounts[index] ?? 0)),
  }));
  return { engines, rows };
}

/**
 * Headline statistics: every ground-truth average, and for judges their
 * rating and the retrieval values derived from verdicts. A judge's other
 * details (token counts, statement counts) stay in report.json.
 */
const KEY_STATISTIC =
  /^(retrieval\/ground_truth\/[^/]+\/average|[a-z]+\/[a-z_]+\/[a-z0-9_]+\/(rating\/(average|percentage)|(precision|average_precision|ndcg@\d+)\/average))$/;

export function isKeyStatistic(name: string): boolean {
  return KEY_STATISTIC.test(name);
}

/**
 * The per-case metrics behind the report's headline statistics: the ones a
 * regression alarm should watch, and a leaderboard ranks by. Judge details
 * (token counts, lengths) are left out: higher is not better for them.
 */
export function headlineMetrics(report: Pick<Report, 'engines'>): string[] {
  const names = new Set<string>();
  for (const statistics of Object.values(report.engines)) {
    for (const statistic of Object.keys(statistics)) {
      if (isKeyStatistic(statistic)) names.add(statistic.replace(/\/(average|percentage)$/, ''));
    }
  }
  return [...names].sort(compareText);
}

function formatCell(statistics: Readonly<Record<string, number>>, metric: string, engineCases: number): string {
  const value = Object.hasOwn(statistics, metric) ? statistics[metric] : undefined;
  if (value === undefined) return '-';
  const isPercentage = metric.endsWith(PERCENTAGE);
  const text = isPercentage ? formatPercentage(value) : formatAverage(value);
  const countName = `${metric.slice(0, -(isPercentage ? PERCENTAGE : AVERAGE).length)}/count`;
  const count = Object.hasOwn(statistics, countName) ? statistics[countName] : undefined;
  return count !== undefined && count < engineCases ? `${text} (n=${count})` : text;
}

/** An average with 4 decimals: 0.75 -> "0.7500". */
export function formatAverage(value: number): string {
  return value.toFixed(4);
}

/** A share in [0, 1] as a percentage with one decimal: 0.625 -> "62.5%". */
export function formatPercentage(share: number): string {
  return `${(share * 100).toFixed(1)}%`;
}
