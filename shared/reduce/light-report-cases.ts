import { perCaseStatistics, type KeyStatistics } from '../report-render/html/key-statistics.js';
import { VERDICT_YES } from '../report/metric-columns.js';
import { compareText } from '../report/ordering.js';
import { REDUCE_RANGE_SIZE, type RangePartial } from '../report/range-partial.js';

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
 * partials always pick the same cases. Sorted by case id, without duplicates.
 */
export function excerptCaseIds(partials: readonly RangePartial[], sortedCaseIds: readonly string[], keys: KeyStatistics): string[] {
  const chosen = new Set<string>();
  for (const engine of keys.engines) {
    for (const statistic of perCaseStatistics(keys)) {
      const valued: { index: number; value: number }[] = [];
      for (const partial of partials) {
        const column = partial.columns.engines.get(engine)?.get(statistic.metric);
        if (column === undefined) continue;
        const offset = partial.range * REDUCE_RANGE_SIZE;
        for (let slot = 0; slot < partial.columns.size; slot++) {
          const value = statistic.kind === 'percentage' ? verdictAt(column.verdicts, slot) : column.values?.[slot];
          if (value !== undefined && !Number.isNaN(value)) valued.push({ index: offset + slot, value });
        }
      }
      valued.sort((left, right) => right.value - left.value || left.index - right.index);
      for (const entry of [...valued.slice(0, EXCERPT_PER_METRIC), ...valued.slice(-EXCERPT_PER_METRIC)]) chosen.add(sortedCaseIds[entry.index] as string);
    }
  }
  return [...chosen].sort(compareText);
}

function verdictAt(verdicts: Uint8Array | undefined, slot: number): number | undefined {
  const verdict = verdicts?.[slot];
  if (verdict === undefined || verdict === 0) return undefined;
  return verdict === VERDICT_YES ? 1 : 0;
}
