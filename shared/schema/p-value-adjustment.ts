import { z } from 'zod';

/**
 * How a family of p-values is adjusted for multiple comparisons
 * (shared/statistics/p-value-adjustment.ts): Holm's step-down procedure,
 * Benjamini and Hochberg's step-up procedure, or not at all.
 */
export const pValueAdjustmentMethodSchema = z.enum(['holm', 'benjamini-hochberg', 'none']);
export type PValueAdjustmentMethod = z.infer<typeof pValueAdjustmentMethodSchema>;

/**
 * The defaults: Holm's method against the baseline (a gate must not fire by
 * chance: it holds the chance of any false alarm at alpha), and
 * Benjamini-Hochberg's between the engines of a leaderboard (it holds the
 * expected share of wrongly separated pairs at alpha, and separates many more
 * of the hundreds of pairs of a sweep: docs/benchmarks.md).
 */
export const DEFAULT_BASELINE_ADJUSTMENT: PValueAdjustmentMethod = 'holm';
export const DEFAULT_LEADERBOARD_ADJUSTMENT: PValueAdjustmentMethod = 'benjamini-hochberg';

/**
 * Which family of tests was adjusted together, how, and at what level: what a
 * report says beside its adjusted p-values.
 */
export const pValueAdjustmentSchema = z.object({
  method: pValueAdjustmentMethodSchema,
  /**
   * The family: `engine_metrics`, every engine × metric of one comparison of
   * two runs (against the baseline, or `assay compare`); `pairs`, every pair
   * of systems one leaderboard tests.
   */
  family: z.enum(['engine_metrics', 'pairs']),
  /** How many p-values were adjusted together. */
  tests: z.number().int().nonnegative(),
  /** A test counts when its adjusted p-value is below this. */
  alpha: z.number(),
});
export type PValueAdjustmentRecord = z.infer<typeof pValueAdjustmentSchema>;

/** The method's name in a sentence: "Holm's method", "the Benjamini-Hochberg method", "no adjustment". */
export function adjustmentName(method: PValueAdjustmentMethod): string {
  switch (method) {
    case 'holm':
      return "Holm's method";
    case 'benjamini-hochberg':
      return 'the Benjamini-Hochberg method';
    case 'none':
      return 'no adjustment';
  }
}

/**
 * The family in a sentence, for every page that shows adjusted p-values:
 * "p-values adjusted by Holm's method across the 22 tests of this comparison
 * (each engine × metric); significant: adjusted p < 0.05".
 */
export function adjustmentSentence(adjustment: PValueAdjustmentRecord): string {
  const tests = `${adjustment.tests} ${adjustment.tests === 1 ? 'test' : 'tests'}`;
  const family =
    adjustment.family === 'engine_metrics'
      ? `the ${tests} of this comparison (each engine × metric)`
      : `the ${tests} of this leaderboard's pairs`;
  if (adjustment.method === 'none') return `p-values not adjusted across ${family}; significant: p < ${adjustment.alpha}`;
  return `p-values adjusted by ${adjustmentName(adjustment.method)} across ${family}; significant: adjusted p < ${adjustment.alpha}`;
}
