import { z } from 'zod';
import { attributedRegressionSchema, type CanaryReport } from '../schema/canary-report.js';
import { identitiesText } from './canary-section.js';

/**
 * A run's canary as a suite's history keeps it (history.json, the history
 * page's canary trends): per judge the numbers a trend over nights needs,
 * without the items. Every number is report.json's `canaries` own.
 */
export const canaryHistoryJudgeSchema = z.object({
  /** Cohen's kappa with the canary's human labels; null when undefined, absent without labels. */
  kappa: z.number().nullable().optional(),
  items: z.number().int().nonnegative(),
  /** Against the run compared with: verdicts changed, of those paired, and the Holm-adjusted p-value; absent without a comparison. */
  changed_items: z.number().int().nonnegative().optional(),
  paired: z.number().int().nonnegative().optional(),
  p_value: z.number().optional(),
  /** Who answered, as one text ("model fingerprint"). */
  answered_by: z.string(),
  identity_changed: z.boolean(),
  changed: z.boolean(),
});

export const canaryHistorySchema = z.object({
  compared_with: z.string().nullable(),
  judges: z.record(z.string(), canaryHistoryJudgeSchema),
  changed_judges: z.array(z.string()),
  attributed_regressions: z.array(attributedRegressionSchema),
  /** The sentences of the changed judges, as the report says them. */
  summary: z.array(z.string()),
});
export type CanaryHistory = z.infer<typeof canaryHistorySchema>;

export function canaryHistoryOf(canaries: CanaryReport): CanaryHistory {
  const judges = Object.entries(canaries.judges).map(([judge, canary]) => {
    const kappa = canary.agreement === undefined ? {} : { kappa: canary.agreement.cohen_kappa };
    const drift =
      canary.drift === undefined
        ? {}
        : { changed_items: canary.drift.changed, paired: canary.drift.paired, p_value: canary.drift.adjusted_p_value };
    const entry = {
      ...kappa,
      items: canary.items.length,
      ...drift,
      answered_by: identitiesText(canary.answered_by),
      identity_changed: canary.drift?.identity_changed ?? false,
      changed: canary.changed,
    };
    return [judge, entry] as const;
  });
  return {
    compared_with: canaries.compared_with,
    judges: Object.fromEntries(judges),
    changed_judges: [...canaries.changed_judges],
    attributed_regressions: [...canaries.attributed_regressions],
    summary: [...canaries.summary],
  };
}
