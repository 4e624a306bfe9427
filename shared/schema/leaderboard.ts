import { z } from 'zod';
import { pValueAdjustmentSchema } from './p-value-adjustment.js';

const count = z.number().int().nonnegative();

/**
 * Several systems (a run's engines, `assay agreement`'s runs) ranked on one
 * metric, with every pair's difference tested on the cases (or topics) both
 * have, the p-values adjusted across the pairs, and the groups the tests
 * cannot tell apart as a compact letter display
 * (shared/statistics/leaderboard.ts builds it). One shape for report.json's
 * `leaderboards`, `assay compare --json` and `assay agreement --json`.
 */
export const leaderboardSchema = z.object({
  /** The metric (or TREC measure) the systems are ranked on. */
  metric: z.string(),
  /** The judge whose values, corrected by the human ones, estimate the metric; absent for plain means. */
  judge: z.string().optional(),
  /** What `n` and `labelled` count: a run's cases or a collection's topics. */
  unit: z.enum(['cases', 'topics']),
  /** The pairs' p-values, adjusted across the pairs tested (`family`: `pairs`). */
  adjustment: pValueAdjustmentSchema,
  /** Best first. */
  ranking: z.array(
    z.object({
      name: z.string(),
      /** 1 for the best; systems of equal means in name order. */
      rank: z.number().int().positive(),
      mean: z.number(),
      /**
       * How `mean` was estimated: `corrected`, the judge's values corrected by
       * the human ones (prediction-powered, over every case with the judge's
       * value); `human`, the labelled cases alone, where too few are labelled
       * for a corrected interval; `judge`, the judge's alone, where none is;
       * `mean`, the plain mean of a metric with no judge to correct it.
       */
      estimate: z.enum(['corrected', 'human', 'judge', 'mean']),
      /** Cases with a value (the judge's, for a corrected mean). */
      n: count,
      /** With a judge: cases with the human value too. */
      labelled: count.optional(),
      /** Systems that share a letter are not separated; each letter is a largest such group. Empty when `letters_reason` says why there are none. */
      letters: z.array(z.string()),
    }),
  ),
  /** Every pair of ranked systems, the higher-ranked first, in ranking order. */
  pairs: z.array(
    z.object({
      names: z.tuple([z.string(), z.string()]),
      /**
       * `corrected`: the corrected mean of the per-case differences (the
       * judge's on every case both have, the human ones where both are
       * labelled); `paired_t`: Student's paired t-test on the cases both have
       * a value for (with a judge, the labelled ones, when the corrected
       * difference has no interval); `none`: no test, `reason` says why.
       */
      test: z.enum(['corrected', 'paired_t', 'none']),
      /** The first's mean minus the second's on the cases tested; null without a test. */
      difference: z.number().nullable(),
      /** The cases the test used (with the judge's value in both, for a corrected difference). */
      n: count,
      /** For a corrected difference: of those, the cases labelled in both. */
      labelled: count.optional(),
      p_value: z.number().nullable(),
      adjusted_p_value: z.number().nullable(),
      /** adjusted_p_value below the adjustment's alpha. */
      separated: z.boolean(),
      /** Why the test is not the corrected one, or why there is none. */
      reason: z.string().optional(),
    }),
  ),
  /** How many pairs are separated. */
  separated: count,
  /** Why the ranking has no letters (separations that contradict each other into too many groups). */
  letters_reason: z.string().optional(),
});
export type Leaderboard = z.infer<typeof leaderboardSchema>;
export type LeaderboardPair = Leaderboard['pairs'][number];
