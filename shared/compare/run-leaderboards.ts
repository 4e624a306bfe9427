import { caseLinesSegment, reportLeaderboards } from '../report/report-leaderboards.js';
import type { RunComparison } from '../schema/compare-json.js';
import type { PValueAdjustmentMethod } from '../schema/p-value-adjustment.js';
import type { RunFiles } from './compare-runs.js';

/**
 * `assay compare A B` with the leaderboards of run B, the run compared, when
 * it has three engines or more (shared/report/report-leaderboards.ts): read
 * from B's case lines as the reducer reads them, at the comparison's alpha
 * (the corrected means at level 1 − alpha), so they are B's report's own
 * when the settings agree. `assay view`'s /api/compare gives the same.
 */
export function withRunLeaderboards(
  comparison: RunComparison,
  b: RunFiles,
  options: {
    readonly alpha: number;
    readonly minLabelled: number;
    readonly method: PValueAdjustmentMethod;
    /** The metrics compared (--metric); every headline metric when not given. */
    readonly metrics?: readonly string[] | undefined;
  },
): RunComparison {
  const leaderboards = reportLeaderboards(b.report, [caseLinesSegment(b.cases)], {
    level: 1 - options.alpha,
    minLabelled: options.minLabelled,
    alpha: options.alpha,
    method: options.method,
    ...(options.metrics === undefined ? {} : { metrics: options.metrics }),
  });
  return leaderboards.length === 0 ? comparison : { ...comparison, leaderboards };
}
