import { z } from 'zod';
import { canaryHistoryOf } from '../canaries/canary-history.js';
import { canaryHistorySchema } from '../schema/canary-report.js';
import { isKeyStatistic } from '../report/key-metrics.js';
import { sortedRecord } from '../report/ordering.js';
import { pValueAdjustmentSchema } from '../schema/p-value-adjustment.js';
import { judgeAgreementSchema, reportCasesSchema, reportComparisonSchema, type Report } from '../schema/report.js';

/** A judge's agreement with the human labels as the history keeps it: report.json's, without the confusion table and the reasons. */
export const agreementSummarySchema = judgeAgreementSchema.omit({ confusion: true, reasons: true });

/**
 * One reported run of a suite, as its history keeps it: what a trend over
 * weeks needs, and no more, so a history of a thousand nights stays small.
 * Every number is report.json's own, under report.json's own name.
 */
export const historyRowSchema = z.object({
  run_id: z.string(),
  created_at: z.string(),
  dataset: z.string(),
  config_hash: z.string(),
  /** One line about the judge in use, so a change of judge model shows beside the values it moved. */
  judge: z.string(),
  cases: reportCasesSchema,
  /** Per engine, the headline statistics of the report (see isHistoryStatistic). */
  engines: z.record(z.string(), z.record(z.string(), z.number())),
  agreement: z.record(z.string(), agreementSummarySchema),
  /** The run the report was compared with, or null when the suite had none before it. */
  compared_with: z.object({ run_id: z.string(), kind: reportComparisonSchema.shape.baseline_kind }).nullable(),
  /** The metrics significantly worse than compared_with, as report.json's `comparison.regressions` lists them. */
  regressions: reportComparisonSchema.shape.regressions,
  /** How the comparison adjusted its p-values (report.json's `comparison.adjustment`), which each regression's adjusted_p_value is; absent without a comparison or in rows written before. */
  adjustment: pValueAdjustmentSchema.optional(),
  /** The run's judges on its canary set, and which changed (report.json's `canaries`, without the items); absent for a run without one. */
  canaries: canaryHistorySchema.optional(),
});
export type HistoryRow = z.infer<typeof historyRowSchema>;

const INTERVAL = /\/(ci_low|ci_high)$/;
const LATENCY = /^engine\/latency_ms\/(p50|p95|max)$/;
const PASS_RATE = 'thresholds/pass/average';

/**
 * The statistics a history keeps of each engine: the report's key statistics
 * (the averages and percentages its tables and charts show and its
 * comparison tests, see isKeyStatistic), the threshold pass rate, the 95%
 * intervals of those, the engine latency (p50, p95, max) and every error
 * count. Judge details such as token counts stay in report.json.
 */
export function isHistoryStatistic(name: string): boolean {
  const base = name.replace(INTERVAL, '');
  if (isKeyStatistic(base) || base === PASS_RATE) return true;
  return base === name && (LATENCY.test(name) || name.endsWith('/error_count'));
}

/** The history row of a report. */
export function historyRowOf(report: Report): HistoryRow {
  const engines = Object.entries(report.engines).map(
    ([engine, statistics]) => [engine, sortedRecord(Object.entries(statistics).filter(([name]) => isHistoryStatistic(name)))] as const,
  );
  const agreement = Object.entries(report.agreement ?? {}).map(
    ([judge, { confusion: _confusion, reasons: _reasons, ...summary }]) => [judge, summary] as const,
  );
  return {
    run_id: report.run_id,
    created_at: report.created_at,
    dataset: report.dataset,
    config_hash: report.config_hash,
    judge: report.judge,
    cases: report.cases,
    engines: sortedRecord(engines),
    agreement: sortedRecord(agreement),
    compared_with:
      report.comparison === undefined ? null : { run_id: report.comparison.baseline_run_id, kind: report.comparison.baseline_kind },
    regressions: report.comparison?.regressions ?? [],
    ...(report.comparison?.adjustment === undefined ? {} : { adjustment: report.comparison.adjustment }),
    ...(report.canaries === undefined ? {} : { canaries: canaryHistoryOf(report.canaries) }),
  };
}
