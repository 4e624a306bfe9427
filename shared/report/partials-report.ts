import { reportHeader } from './aggregate.js';
import { compareFailedCases, judgeFailedCaseCount } from './judge-failures.js';
import { judgeSpendFields } from './judge-spend-report.js';
import { totalJudgeUsage } from './judge-usage.js';
import type { MetricColumn } from './metric-columns.js';
import { columnStatistics, meanInterval, type IntervalSource } from './metric-statistics.js';
import { compareText } from './ordering.js';
import type { Report } from '../schema/report.js';
import type { JudgeUsageRecord, Manifest } from '../schema/run-records.js';
import { OUTCOME_EVALUATED, OUTCOME_FAILED, OUTCOME_MISSING, REDUCE_RANGE_SIZE, type RangePartial } from './range-partial.js';

/**
 * The report of a run from the partials of all its ranges, the same as
 * reportInOnePass (shared/report/aggregate.ts) gives from the records themselves:
 * ranges are consecutive runs of the sorted case ids, so walking them in
 * order visits the cases in case-id order, and every sum adds the same terms
 * in the same order. Counts and lists follow caseOutcomes' rules.
 *
 * `sortedCaseIds` are the run's distinct case ids in code-unit order; the
 * partials must cover them, range by range, with none missing.
 * `budgetReached` says the run's judge-budget-reached marker exists;
 * `intervalOf` gives the statistics' intervals (columnStatistics).
 */
export function reportFromPartials(
  manifest: Manifest,
  sortedCaseIds: readonly string[],
  partials: readonly RangePartial[],
  attemptUsage: readonly Readonly<Record<string, JudgeUsageRecord>>[],
  budgetReached = false,
  intervalOf: IntervalSource = meanInterval,
): Report {
  if (sortedCaseIds.length !== manifest.cases) {
    throw new Error(`Expected ${manifest.cases} case ids (the manifest's case count), got ${sortedCaseIds.length}`);
  }
  const ordered = [...partials].sort((left, right) => left.range - right.range);
  const expectedRanges = Math.ceil(sortedCaseIds.length / REDUCE_RANGE_SIZE);
  if (ordered.length !== expectedRanges || ordered.some((partial, index) => partial.range !== index)) {
    throw new Error(
      `Expected the partials of ranges 0 to ${expectedRanges - 1}, got ranges ${ordered.map((partial) => partial.range).join(', ')}`,
    );
  }
  let evaluated = 0;
  const missing: string[] = [];
  for (const partial of ordered) {
    for (const [slot, outcome] of partial.outcomes.entries()) {
      if (outcome === OUTCOME_EVALUATED) evaluated++;
      else if (outcome === OUTCOME_MISSING) missing.push(sortedCaseIds[partial.range * REDUCE_RANGE_SIZE + slot] as string);
      else if (outcome !== OUTCOME_FAILED) throw new Error(`Expected a case outcome of 0, 1 or 2, got ${outcome}`);
    }
  }
  const failed = ordered.flatMap((partial) => partial.failed);
  const judgeFailures = ordered.flatMap((partial) => partial.judgeFailures);
  const engineNames = new Set(manifest.engines);
  for (const partial of ordered) for (const engine of partial.columns.engines.keys()) engineNames.add(engine);
  const engines = Object.fromEntries(
    [...engineNames].sort(compareText).map((engine) => [engine, columnStatistics(columnsOf(ordered, engine), intervalOf)] as const),
  );
  const judges = totalJudgeUsage([...ordered.map((partial) => partial.judgeUsage), ...attemptUsage]);
  const judgingSkipped = ordered.reduce((sum, partial) => sum + (partial.judgingSkipped ?? 0), 0);
  return {
    ...reportHeader(manifest),
    cases: {
      total: sortedCaseIds.length,
      evaluated,
      failed: failed.length,
      missing: missing.length,
      judge_failed: judgeFailedCaseCount(judgeFailures),
    },
    input_errors: manifest.input_errors,
    engines,
    judges,
    ...judgeSpendFields(manifest, judges, { evaluated, judgingSkipped }, budgetReached),
    missing_cases: missing,
    failed_cases: [...failed, ...judgeFailures].sort(compareFailedCases),
  };
}

/** One engine's columns, metric -> its columns in range order. */
export function columnsOf(partials: readonly RangePartial[], engine: string): Map<string, MetricColumn[]> {
  const byMetric = new Map<string, MetricColumn[]>();
  for (const partial of partials) {
    for (const [name, column] of partial.columns.engines.get(engine) ?? []) {
      const columns = byMetric.get(name) ?? [];
      columns.push(column);
      byMetric.set(name, columns);
    }
  }
  return byMetric;
}
