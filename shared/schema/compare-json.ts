import { z } from 'zod';
import { canaryHistorySchema } from './canary-report.js';
import { leaderboardSchema } from './leaderboard.js';
import { pValueAdjustmentSchema } from './p-value-adjustment.js';
import { metricComparisonSchema } from './report.js';

/**
 * What `assay compare A B --json` prints (shared/compare/compare-runs.ts
 * builds it; docs/report.md describes it): per engine both runs have, each
 * metric compared, B against A, keys sorted; and B's leaderboards.
 */
export const compareJsonSchema = z.object({
  /** How the p-values were adjusted across every engine × metric compared. */
  adjustment: pValueAdjustmentSchema,
  engines: z.record(z.string(), z.record(z.string(), metricComparisonSchema)),
  /** With three engines or more in run B: its engines ranked per headline metric, every pair tested (shared/compare/run-leaderboards.ts). */
  leaderboards: z.array(leaderboardSchema).optional(),
  /**
   * When both runs judged the same canary set: B's judges' canary verdicts against A's, as a
   * suite's history keeps a canary (shared/compare/run-canaries.ts); the regressions in
   * `attributed_regressions` are the changed judges', not the engines'.
   */
  canaries: canaryHistorySchema.optional(),
});
/** engine -> metric -> comparison. */
export type RunComparison = z.infer<typeof compareJsonSchema>;
