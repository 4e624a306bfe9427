import { z } from 'zod';
import { judgeAgreementSchema } from './judge-agreement.js';
import { answerIdentitySchema, answeredBySchema, judgeUsageSchema } from './run-records.js';

/**
 * report.json's `canaries`: what the run's judges made of its canary set
 * (config `canaries:`, shared/canaries/), and whether each judge changed
 * since the run it was compared with.
 */

const count = z.number().int().nonnegative();

/** One thing a judge judged on the canary: a document of a request (a retrieval judge), or an engine's answer to it (an answer judge). */
export const canaryItemSchema = z.object({
  request_id: z.string(),
  /** The document judged, for a retrieval judge. */
  document: z.string().optional(),
  /** The engine whose answer was judged, for an answer judge. */
  engine: z.string().optional(),
  /** The judge's verdict: yes/no as 1/0, else its grade or score; null when the judgment failed. */
  verdict: z.number().nullable(),
  /** The human label: the document's grade, or the human verdict (yes/no as 1/0); absent where there is none. */
  human: z.number().optional(),
});
export type CanaryItem = z.infer<typeof canaryItemSchema>;

/**
 * A judge's canary verdicts against the same items' verdicts in the run it
 * was compared with: McNemar's exact test for yes/no verdicts, a paired
 * sign-flip test for grades and scores, and whether another model identity
 * answered.
 */
export const canaryDriftSchema = z.object({
  test: z.enum(['mcnemar', 'sign-flip']),
  /** Items with a verdict in both runs. */
  paired: count,
  /** Of them, the verdicts that differ: lower now (yes → no, a lower grade) and higher. */
  changed: count,
  lower: count,
  higher: count,
  /** The test's two-sided p-value of no change; 1 with nothing paired or nothing changed. */
  p_value: z.number(),
  /** Adjusted by Holm's method over the judges the run tested, which `alpha` is applied to. */
  adjusted_p_value: z.number(),
  /** adjusted_p_value < alpha: the canary's verdicts moved more than chance explains. */
  verdicts_changed: z.boolean(),
  /** The identities that answered the baseline's canary, for beside this run's. */
  identities_before: z.array(answerIdentitySchema),
  /** Another identity answered now, or one that answered then did not; false when either run recorded none. */
  identity_changed: z.boolean(),
});
export type CanaryDrift = z.infer<typeof canaryDriftSchema>;

export const canaryJudgeSchema = z.object({
  scale: z.enum(['yes_no', 'graded']),
  items: z.array(canaryItemSchema),
  /** Items whose judgment failed (verdict null). */
  failed: count,
  /** Agreement with the human labels, over the items that have one, as `assay agreement` measures it; absent when none has. */
  agreement: judgeAgreementSchema.optional(),
  /** Who answered the canary's judgments, as the provider named it (all of them are fresh: the canary is never read from the cache). */
  answered_by: z.array(answeredBySchema),
  /** Against the run compared with; absent when it has no canary verdicts of this judge. */
  drift: canaryDriftSchema.optional(),
  /** Flagged: its canary verdicts changed, or its model identity did. */
  changed: z.boolean(),
});
export type CanaryJudge = z.infer<typeof canaryJudgeSchema>;

/** A regression of a judge's metric on a night its judge changed: put down to the judge, not to the engine. */
export const attributedRegressionSchema = z.object({
  engine: z.string(),
  metric: z.string(),
  delta: z.number(),
  p_value: z.number(),
  /** The p-value adjusted across the comparison, as the regression had it. */
  adjusted_p_value: z.number().optional(),
  /** The changed judge whose metric it is. */
  judge: z.string(),
});

export const canaryReportSchema = z.object({
  /** The canary set's key in the store. */
  dataset: z.string(),
  cases: z.object({ total: count, evaluated: count, failed: count, missing: count }),
  input_errors: count,
  /** The first input error of the canary set, such as one missing from the store. */
  first_input_error: z.string().optional(),
  /** The level the judge-change tests are held to, over the run's judges together (config canaries.alpha). */
  alpha: z.number(),
  /** The run whose canary verdicts this run's are compared with (the report's comparison target), or null. */
  compared_with: z.string().nullable(),
  /** Why there is no comparison, when there is none. */
  not_compared: z.string().optional(),
  judges: z.record(z.string(), canaryJudgeSchema),
  /** The judges flagged as changed. */
  changed_judges: z.array(z.string()),
  /** Regressions of a changed judge's metrics: the judge's, and so left out of `comparison.regressions`. */
  attributed_regressions: z.array(attributedRegressionSchema),
  /** What the canary's judgments cost, per judge: every one a fresh call. */
  usage: z.record(z.string(), judgeUsageSchema),
  /** One sentence per changed judge, as report.md, the warnings and `assay run` say it. */
  summary: z.array(z.string()),
});
export type CanaryReport = z.infer<typeof canaryReportSchema>;

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
