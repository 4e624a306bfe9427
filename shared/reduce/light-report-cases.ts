import { perCaseStatistics, type KeyStatistics } from '../report-render/html/key-statistics.js';
import { VERDICT_YES } from '../report/metric-columns.js';
import { compareText } from '../report/ordering.js';
import { REDUCE_RANGE_SIZE, type RangePartial } from '../report/range-partial.js';
import { ExtremeCases } from './extreme-cases.js';

/**
 * Above this many cases report.html shows an excerpt of the per-query table
 * instead of every case (a page of a million rows would not open); cases.jsonl
 * always has them all.
 */
export const FULL_HTML_CASE_LIMIT = 2_000;

/** How many best and how many worst cases of each engine and key metric the excerpt shows. */
export const EXCERPT_PER_METRIC = 50;

/**
 * The case ids of a large run's per-query excerpt: for every engine and key
 * statistic, the EXCERPT_PER_METRIC cases with the highest value and those with
 * the lowest (a yes counts 1, a no 0), ties broken by case id, so the same
 * partials always pick the same cases; they are kept as the values go by
 * (extreme-cases.ts), not sorted out of a million. Sorted by case id, without
 * duplicates.
 */
export function excerptCaseIds(partials: readonly RangePartial[], sortedCaseIds: readonly string[], keys: KeyStatistics): string[] {
  const chosen = new Set<string>();
  for (const engine of keys.engines) {
    for (const statistic of perCaseStatistics(keys)) {
      const highest = new ExtremeCases(EXCERPT_PER_METRIC, 'highest');
      const lowest = new ExtremeCases(EXCERPT_PER_METRIC, 'lowest');
      for (const partial of partials) {
        const column = partial.columns.engines.get(engine)?.get(statistic.metric);
        if (column === undefined) continue;
        const offset = partial.range * REDUCE_RANGE_SIZE;
        for (let slot = 0; slot < partial.columns.size; slot++) {
          const value = statistic.kind === 'percentage' ? verdictAt(column.verdicts, slot) : column.values?.[slot];
          if (value === undefined || Number.isNaN(value)) continue;
          highest.offer(offset + slot, value);
          lowest.offer(offset + slot, value);
        }
      }
      for (const entry of [...highest.cases, ...lowest.cases]) chosen.add(sortedCaseIds[entry.index] as string);
    }
  }
  return [...chosen].sort(compareText);
}

function verdictAt(verdicts: Uint8Array | undefined, slot: number): number | undefined {
  const verdict = verdicts?.[slot];
  if (verdict === undefined || verdict === 0) return undefined;
  return verdict === VERDICT_YES ? 1 : 0;
}
