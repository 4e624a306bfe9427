import { z } from 'zod';
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
});
/** engine -> metric -> comparison. */
export type RunComparison = z.infer<typeof compareJsonSchema>;
