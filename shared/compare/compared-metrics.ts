import type { MetricValue } from '../schema/metric-value.js';
import { compareText } from '../report/ordering.js';
import type { Report } from '../schema/report.js';

const AVERAGE = '/average';
const PERCENTAGE = '/percentage';
const RATING = '/rating';

/**
 * The metrics a comparison covers by default: the per-case metrics a report
 * aggregates as numbers, from the statistics of every engine of every
 * report given, sorted, without duplicates.
 * - `M/average` (a numeric metric, a numeric rating included) -> M;
 * - `<prefix>/rating/percentage` (a yes/no rating) -> `<prefix>/rating`,
 *   compared as a rate with yes = 1 and no = 0.
 * Counts, error counts and texts are not compared.
 */
export function aggregatedMetrics(reports: readonly Report[]): string[] {
  const metrics = new Set<string>();
  for (const report of reports) {
    for (const statistics of Object.values(report.engines)) {
      for (const statistic of Object.keys(statistics)) {
        if (statistic.endsWith(AVERAGE)) metrics.add(statistic.slice(0, -AVERAGE.length));
        else if (statistic.endsWith(RATING + PERCENTAGE)) metrics.add(statistic.slice(0, -PERCENTAGE.length));
      }
    }
  }
  return [...metrics].sort(compareText);
}

/**
 * A case's value of `metric` as a number to compare, or undefined when it
 * has none: a finite number as it is; for a metric ending in `/rating`,
 * "yes" -> 1 and "no" -> 0 (so the mean is the share of yes, the report's
 * `/rating/percentage`); anything else (null, NaN, texts, per-chunk lists)
 * -> undefined, and the case drops out of that metric's pairs.
 */
export function comparableValue(metric: string, value: MetricValue | undefined): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (metric.endsWith(RATING)) {
    if (value === 'yes') return 1;
    if (value === 'no') return 0;
  }
  return undefined;
}
