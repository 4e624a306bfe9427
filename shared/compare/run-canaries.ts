import { canaryHistoryOf } from '../canaries/canary-history.js';
import { canariesBetween, engineRegressions } from '../canaries/canary-section.js';
import type { RunComparison } from '../schema/compare-json.js';
import { regressions, type Regression, type RunFiles } from './compare-runs.js';

/**
 * `assay compare A B` with the judges' canaries, when both runs judged the
 * same canary set: B's canary verdicts tested against A's as a nightly
 * report tests its own against the run it is compared with
 * (shared/canaries/canary-section.ts), and the comparison's regressions of a
 * judge whose verdicts moved put down to that judge. The canary is kept as a
 * suite's history keeps it: the numbers without the items.
 */
export function withRunCanaries(comparison: RunComparison, a: RunFiles, b: RunFiles): RunComparison {
  const canaries = canariesBetween(a.report, b.report, regressions(comparison));
  return canaries === undefined ? comparison : { ...comparison, canaries: canaryHistoryOf(canaries) };
}

/** The comparison's regressions that are the engines': those its canary did not put down to a changed judge (what --fail-on-regression counts). */
export function engineRegressionsOf(comparison: RunComparison): Regression[] {
  return engineRegressions(regressions(comparison), comparison.canaries);
}
