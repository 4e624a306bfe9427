import { z } from 'zod';
import { caseResultSchema, rankedDocumentsSchema, judgeUsageSchema } from './run-records.js';
import { judgeAgreementSchema } from './judge-agreement.js';
import { canaryReportSchema } from './canary-report.js';
import { leaderboardSchema } from './leaderboard.js';
import { pValueAdjustmentSchema } from './p-value-adjustment.js';

export { judgeAgreementSchema, type JudgeAgreement } from './judge-agreement.js';

/**
 * What the reducer writes under `reports/<suite>/<run>/`:
 * - `report.json`: the run's summary (this file's `reportSchema`);
 * - `cases.jsonl`: every case's metrics per engine, one `caseLineSchema` per line.
 * Both are pure functions of the run's records, so writing them twice gives
 * the same bytes: `created_at` is the manifest's, not the time of writing.
 */

/** A per-case metric value, as a case result holds it. */
const metricValueSchema = caseResultSchema.shape.engines.valueType.valueType;

const count = z.number().int().nonnegative();

export const reportCasesSchema = z.object({
  /** The run's distinct case ids: the manifest's case count. */
  total: count,
  /** Cases with a result. */
  evaluated: count,
  /** Cases with a failure and no result. */
  failed: count,
  /** Cases with neither. */
  missing: count,
  /**
   * Evaluated cases where some judgment ended in error: their other metrics
   * count; that judge's metrics leave them out. Every report builder writes
   * it (0 when none); reports written before it was counted lack it.
   */
  judge_failed: count.optional(),
});
export type ReportCases = z.infer<typeof reportCasesSchema>;

/**
 * One entry of `failed_cases`. Without `judge`: a case that failed as a whole
 * (a failure and no result), counted in `cases.failed`. With `judge`: an
 * evaluated case whose judgment by that judge ended in error, one entry per
 * case and judge, with the engines (sorted) whose metrics of that judge hold
 * the error and the first of those engines' error messages.
 */
export const failedCaseSchema = z.object({
  case_id: z.string(),
  error: z.string(),
  judge: z.string().optional(),
  engines: z.array(z.string()).optional(),
});
export type FailedCase = z.infer<typeof failedCaseSchema>;

const meanIntervalSchema = z.object({ mean: z.number(), low: z.number(), high: z.number() });

/**
 * What a corrected estimate counts: a run's `cases` (report.json, `assay
 * compare`) or a TREC collection's `topics` (`assay agreement`).
 */
export const correctedUnitSchema = z.enum(['cases', 'topics']);
export type CorrectedUnit = z.infer<typeof correctedUnitSchema>;

/**
 * A human metric's mean over the run's cases (a ground-truth metric, or a
 * human verdict rate), or a measure's mean over a collection's topics,
 * corrected by a judge's twin of it: the judge's mean over every case, the
 * human mean over the labelled ones with its interval, and the corrected
 * estimate with its interval and the weight it gives the judge; or, with
 * too few labelled cases, why there is no interval. One shape for
 * report.json, `assay compare --json` and `assay agreement --json`, built by
 * shared/statistics/corrected-estimate.ts.
 */
export const correctedEstimateSchema = z.object({
  /**
   * What `labelled` and `cases` count. Absent means `cases`: report.json has
   * never written it (its counts are always a run's cases, old reports and
   * new), and `assay agreement` writes `topics`.
   */
  unit: correctedUnitSchema.optional(),
  /** Cases (or topics) with the human value too. */
  labelled: count,
  /** Cases (or topics) with the judge's value: the population whose mean is estimated. */
  cases: count,
  /**
   * What the interval is for: `finite`, the mean over the run's own cases (an
   * engine's mean); `superpopulation`, over the queries the cases stand for (a
   * difference, as a significance test reads it). Absent in reports written
   * before it was given.
   */
  population: z.enum(['finite', 'superpopulation']).optional(),
  /** The intervals' confidence level; with an interval only. */
  level: z.number().optional(),
  /** The judge's mean over every case; absent when nothing has the judge's value, and in report.json when there is no interval. */
  judge_only: z.number().optional(),
  human_only: meanIntervalSchema.optional(),
  corrected: meanIntervalSchema.extend({ weight: z.number() }).optional(),
  /** The judge's value minus the human one, on average over the labelled cases. */
  bias: z.number().optional(),
  correlation: z.number().nullable().optional(),
  /** Differences only: the two-sided p-value of no difference, from the corrected interval's t statistic. */
  p_value: z.number().optional(),
  /**
   * The judge's mean on the labelled cases against the rest, with Welch's
   * p-value: a low one says the labelled cases are not a random sample
   * (shared/statistics/prediction-powered-mean.ts, SampleCheck).
   */
  sample_check: z.object({ labelled_judge_mean: z.number(), unlabelled_judge_mean: z.number(), p_value: z.number() }).optional(),
  /** Why there is no interval (too few labelled cases, no spread in their human values), worded in `unit`. */
  reason: z.string().optional(),
});
export type CorrectedEstimate = z.infer<typeof correctedEstimateSchema>;

/**
 * One metric of one engine, run A against run B, over the cases both have
 * (shared/compare/compare-runs.ts): in report.json, this run against its
 * baseline; in `assay compare --json`, B against A.
 */
export const metricComparisonSchema = z.object({
  /** Mean of A's values on the paired cases. */
  a: z.number(),
  /** Mean of B's values on the paired cases. */
  b: z.number(),
  /** b - a: positive when B is better. */
  delta: z.number(),
  /** delta / |a|; null when a = 0. */
  relative_delta: z.number().nullable(),
  /** Two-sided p-value of the paired randomization test: the one `significant` uses. */
  p_value: z.number(),
  /** Two-sided p-value of the paired t-test, for reference. */
  t_test_p_value: z.number(),
  /**
   * p_value < alpha and |delta| >= minEffect, unless a judge's corrected
   * interval decides (corrected_decision); and, with the p-values adjusted
   * across the comparison (`adjustment`), adjusted_p_value < alpha.
   */
  significant: z.boolean(),
  /** Paired cases. */
  n: z.number(),
  /** Cases where B > A. */
  wins: z.number(),
  /** Cases where B < A. */
  losses: z.number(),
  /** Cases where B = A. */
  ties: z.number(),
  /** Percentile bootstrap interval of the mean per-case delta, at level 1 - alpha. */
  delta_interval: z.object({ low: z.number(), high: z.number() }),
  /**
   * A ground-truth metric with a relevance judge's twin in both runs, or a
   * human verdict with the answer judge's rating in both: per judge, the
   * mean difference b − a corrected by the judge
   * (shared/compare/corrected-comparison.ts), over every case both runs have
   * the judge's value for, at level 1 − alpha.
   */
  corrected: z.record(z.string(), correctedEstimateSchema).optional(),
  /** When some judge gives a corrected interval: `significant` is read from them, and this is the weakest judge's delta and p-value. */
  corrected_decision: z.object({ judge: z.string(), delta: z.number(), p_value: z.number() }).optional(),
  /**
   * The p-value that decides (corrected_decision's when a judge decides,
   * else p_value) adjusted across the comparison's family of tests
   * (shared/compare/adjusted-comparison.ts). Absent in comparisons written
   * before p-values were adjusted.
   */
  adjusted_p_value: z.number().optional(),
});
export type MetricComparison = z.infer<typeof metricComparisonSchema>;

/** The run against its suite's baseline (or, without one, the suite's previous run). */
export const reportComparisonSchema = z.object({
  baseline_run_id: z.string(),
  /** `baseline` when set with `assay baseline set`, `previous` for the suite's previous report. */
  baseline_kind: z.enum(['baseline', 'previous']),
  /** How the p-values of `engines` were adjusted across the comparison; absent in reports written before they were. */
  adjustment: pValueAdjustmentSchema.optional(),
  /** Metrics significantly worse than the baseline: what the regression alarm counts. */
  regressions: z.array(
    z.object({
      engine: z.string(),
      metric: z.string(),
      delta: z.number(),
      p_value: z.number(),
      /** p_value adjusted across the comparison: the one the gate decided on. */
      adjusted_p_value: z.number().optional(),
      judge: z.string().optional(),
    }),
  ),
  engines: z.record(z.string(), z.record(z.string(), metricComparisonSchema)),
});
export type ReportComparison = z.infer<typeof reportComparisonSchema>;

/** The judges' estimated cost at the config's `judge.prices` (shared/report/judge-cost.ts). */
export const judgeCostSchema = z.object({
  currency: z.string(),
  /** The sum over every model; null when some tokens came from a model without a price. */
  total: z.number().nullable(),
  /** With answers from batch jobs: what the same tokens would have cost on demand; null as total is. */
  online_cost: z.number().nullable().optional(),
  /** Per model that answered: its tokens (those of answers from batch jobs among them) and their cost, null without a price. */
  models: z.record(
    z.string(),
    z.object({
      input_tokens: count,
      output_tokens: count,
      batch_input_tokens: count.optional(),
      batch_output_tokens: count.optional(),
      cost: z.number().nullable(),
    }),
  ),
  /** Per judge id: the cost of its tokens, null when some came from a model without a price. */
  judges: z.record(z.string(), z.object({ cost: z.number().nullable() })),
  /** The models whose tokens have no price, so whose cost is unknown. */
  unpriced_models: z.array(z.string()),
});
export type JudgeCost = z.infer<typeof judgeCostSchema>;

/** The same for the per-case difference of two engines of the run, a minus b. */
export const correctedDifferenceSchema = correctedEstimateSchema.extend({
  engines: z.tuple([z.string(), z.string()]),
  metric: z.string(),
  judge: z.string(),
});
export type CorrectedDifference = z.infer<typeof correctedDifferenceSchema>;

const nullableNumber = z.number().nullable();

/** One candidate judge ranked (shared/agreement/judge-choice.ts), as report.json's judge_ranking and `assay agreement --json` hold it. */
export const rankedJudgeSchema = z.object({
  name: z.string(),
  /** Estimates with an interval, of those given. */
  estimates: count,
  width: nullableNumber,
  human_width: nullableNumber,
  /** width / human_width: below 1 when the judge helps. */
  width_ratio: nullableNumber,
  labelled: nullableNumber,
  equivalent_labels: nullableNumber,
  labels_gained: nullableNumber,
  bias: nullableNumber,
  kappa: nullableNumber,
  cost: nullableNumber,
  labels_per_cost: nullableNumber,
});

export type RankedJudge = z.infer<typeof rankedJudgeSchema>;

/** With two relevance judges or more and human labels: the judges ranked by the corrected interval of one metric (shared/report/judge-ranking.ts). */
export const judgeRankingSchema = z.object({
  metric: z.string(),
  level: z.number(),
  currency: z.string().nullable(),
  by_width: z.array(rankedJudgeSchema),
  by_cost: z.array(rankedJudgeSchema),
});
export type JudgeRanking = z.infer<typeof judgeRankingSchema>;

/** How the run fared against `run.max_judge_cost`. */
export const judgeBudgetSchema = z.object({
  max_judge_cost: z.number(),
  currency: z.string(),
  /** The run's judge spend passed the ceiling, and the cases judged after that had their LLM judges skipped. */
  reached: z.boolean(),
  /** Evaluated cases whose judges were asked. */
  judged_cases: count,
  /** Evaluated cases whose LLM judges were skipped because the ceiling was reached. */
  skipped_cases: count,
});
export type JudgeBudget = z.infer<typeof judgeBudgetSchema>;

export const reportSchema = z
  .object({
    run_id: z.string(),
    suite: z.string(),
    /** The dataset's key in the store. */
    dataset: z.string(),
    config_hash: z.string(),
    /** The manifest's creation time. */
    created_at: z.string(),
    /** One line about the judge in use. */
    judge: z.string(),
    cases: reportCasesSchema,
    /** Bad rows of the dataset (listed in `runs/<run>/input-errors.jsonl`). */
    input_errors: count,
    /** Per engine: `<metric>/<statistic>` -> a finite number, such as `.../precision/average`. */
    engines: z.record(z.string(), z.record(z.string(), z.number())),
    /** Per judge id: its usage summed over the evaluated cases. */
    judges: z.record(z.string(), judgeUsageSchema),
    /** Present when the config gives judge.prices. */
    judge_cost: judgeCostSchema.optional(),
    /** Present when the config sets run.max_judge_cost. */
    judge_budget: judgeBudgetSchema.optional(),
    missing_cases: z.array(z.string()),
    failed_cases: z.array(failedCaseSchema),
    /** Present when the suite has a baseline or an earlier run to compare with. */
    comparison: reportComparisonSchema.optional(),
    /** Per retrieval judge (its name in the run): agreement with the human labels; present when the run has both. */
    agreement: z.record(z.string(), judgeAgreementSchema).optional(),
    /** Per engine, human metric (ground-truth metric, or human verdict `<scope>/human/<judge>/rating`) and judge: the metric's mean corrected by the judge; present when some case has both. */
    corrected: z.record(z.string(), z.record(z.string(), z.record(z.string(), correctedEstimateSchema))).optional(),
    /** With two engines or more: each pair's per-case differences corrected the same way. */
    corrected_differences: z.array(correctedDifferenceSchema).optional(),
    /** With two relevance judges or more: which buys the narrowest corrected interval, and the most per unit of cost. */
    judge_ranking: judgeRankingSchema.optional(),
    /** What the run should make its reader check, such as a judge below `run.min_agreement`; present when there is any. */
    warnings: z.array(z.string()).optional(),
    /**
     * With three engines or more: per headline metric (and judge, for a
     * corrected one), the engines ranked, every pair tested, the p-values
     * adjusted across the pairs (shared/report/report-leaderboards.ts).
     */
    leaderboards: z.array(leaderboardSchema).optional(),
    /** The run's judges on its canary set, and whether each changed since the run compared with; present when the config names a canary set. */
    canaries: canaryReportSchema.optional(),
  })
  .refine((report) => report.cases.evaluated + report.cases.failed + report.cases.missing === report.cases.total, {
    message: 'Expected cases.evaluated + cases.failed + cases.missing to equal cases.total',
    path: ['cases'],
  })
  .refine((report) => report.missing_cases.length === report.cases.missing, {
    message: 'Expected one missing_cases entry per missing case',
    path: ['missing_cases'],
  })
  .refine((report) => report.failed_cases.filter((entry) => entry.judge === undefined).length === report.cases.failed, {
    message: 'Expected one failed_cases entry without a judge per failed case',
    path: ['failed_cases'],
  })
  .refine(
    (report) =>
      new Set(report.failed_cases.flatMap((entry) => (entry.judge === undefined ? [] : [entry.case_id]))).size ===
      (report.cases.judge_failed ?? 0),
    {
      message: 'Expected the failed_cases entries with a judge to name as many cases as cases.judge_failed',
      path: ['failed_cases'],
    },
  )
  .refine((report) => (report.cases.judge_failed ?? 0) <= report.cases.evaluated, {
    message: 'Expected cases.judge_failed to be at most cases.evaluated: a judgment fails only on an evaluated case',
    path: ['cases', 'judge_failed'],
  });
export type Report = z.infer<typeof reportSchema>;

/** One line of `cases.jsonl`: one engine's metrics on one case, ratings, rationales and errors included. */
export const caseLineSchema = z.object({
  case_id: z.string(),
  request_id: z.string(),
  engine: z.string(),
  metrics: z.record(z.string(), metricValueSchema),
  /** The engine's ranked list (doc_uri, rank, score) and response, when the result kept them. */
  retrieved: rankedDocumentsSchema.optional(),
  response: z.string().optional(),
  /** Set when the case's LLM judges were skipped: `max_judge_cost`, the run's cost ceiling had been reached. */
  judging_skipped: caseResultSchema.shape.judging_skipped,
});
export type CaseLine = z.infer<typeof caseLineSchema>;
