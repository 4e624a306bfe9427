import { z } from 'zod';
import { leaderboardSchema } from './leaderboard.js';
import { correctedEstimateSchema, judgeAgreementSchema, rankedJudgeSchema } from './report.js';

/**
 * What `assay agreement --json` prints (shared/agreement/agreement-report.ts
 * and judge-ranking.ts build it; docs/agreement.md describes it): one judge's
 * qrels against the human ones, or several judges ranked. Every null
 * statistic has its reason in `reasons`, under the same path.
 */

const count = z.number().int().nonnegative();
const statistic = z.number().nullable();

/** A percentile bootstrap interval (shared/statistics/bootstrap-interval.ts). */
export const resampledIntervalSchema = z.object({
  low: z.number(),
  high: z.number(),
  /** The resamples on which the statistic was defined: the interval's quantiles are over these. */
  resamples_used: count,
});

/** A run's measure over the topics the judge's qrels score it on, corrected by the human labels of some: the corrected estimate's one shape, in topics. */
export const correctedRunEstimateSchema = z.object({ run: z.string(), measure: z.string(), ...correctedEstimateSchema.shape });
export type CorrectedRunEstimate = z.infer<typeof correctedRunEstimateSchema>;

/** The same for a pair of runs' per-topic differences, a minus b, over the topics both are scored on. */
export const correctedRunDifferenceSchema = z.object({
  runs: z.tuple([z.string(), z.string()]),
  measure: z.string(),
  ...correctedEstimateSchema.shape,
});
export type CorrectedRunDifference = z.infer<typeof correctedRunDifferenceSchema>;

export const agreementReportSchema = z.object({
  /** (topic, document) pairs labelled in both qrels. */
  pairs: count,
  /** Pairs only the human qrels label. */
  human_only: count,
  /** Pairs only the judge's qrels label. */
  judge_only: count,
  /** Every grade either qrels uses, in order: kappa's categories. */
  categories: z.array(z.number()),
  exact_agreement: statistic,
  cohen_kappa: statistic,
  weighted_kappa: statistic,
  binary: judgeAgreementSchema.shape.binary,
  /** confusion[human grade][judge grade] = pairs, over every category. */
  confusion: judgeAgreementSchema.shape.confusion,
  /** With runs: each run's first measure under both qrels, and how alike the two rankings are. */
  systems: z
    .object({
      measure: z.string(),
      n: count,
      kendall_tau: statistic,
      spearman_rho: statistic,
      human: z.record(z.string(), z.number()),
      judge: z.record(z.string(), z.number()),
    })
    .optional(),
  intervals: z.object({
    level: z.number(),
    resamples: count,
    seed: count,
    cohen_kappa: resampledIntervalSchema.nullable(),
    weighted_kappa: resampledIntervalSchema.nullable(),
    binary_kappa: resampledIntervalSchema.nullable(),
    kendall_tau: resampledIntervalSchema.nullable().optional(),
  }),
  /** With runs: each run's measures corrected by the human labels (shared/agreement/corrected-systems.ts). */
  estimates: z.array(correctedRunEstimateSchema).optional(),
  /** With two runs or more: the same for each pair's difference, a minus b. */
  differences: z.array(correctedRunDifferenceSchema).optional(),
  /** With three runs or more: per measure, the runs ranked by their corrected means, every pair tested, the p-values adjusted across the pairs. */
  leaderboards: z.array(leaderboardSchema).optional(),
  reasons: z.record(z.string(), z.string()),
});
export type AgreementReport = z.infer<typeof agreementReportSchema>;

/** With several `--judge`: each judge's report, and the judges ranked (shared/agreement/judge-choice.ts). */
export const judgeRankingReportSchema = z.object({
  judges: z.record(z.string(), agreementReportSchema),
  ranking: z.object({
    /** The measure whose corrected intervals rank the judges: the first -m. */
    measure: z.string(),
    level: z.number(),
    /** The costs' currency when the reports that gave them agree on one; null otherwise. */
    currency: z.string().nullable(),
    /** Narrowest corrected interval first. */
    by_width: z.array(rankedJudgeSchema),
    /** Most human labels gained per unit of cost first; judges of unknown cost last. */
    by_cost: z.array(rankedJudgeSchema),
  }),
});
export type JudgeRankingReport = z.infer<typeof judgeRankingReportSchema>;
