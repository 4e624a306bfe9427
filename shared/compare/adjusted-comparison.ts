import { compareText } from '../report/ordering.js';
import type { PValueAdjustmentMethod, PValueAdjustmentRecord } from '../schema/p-value-adjustment.js';
import type { MetricComparison } from '../schema/report.js';
import { adjustPValues } from '../statistics/p-value-adjustment.js';

/** engine -> metric -> comparison, as compareRuns and the column comparison build it. */
type EngineComparisons = Record<string, Record<string, MetricComparison>>;

/**
 * A comparison of two runs with its p-values adjusted across its family:
 * every engine × metric compared (shared/statistics/p-value-adjustment.ts).
 * Each test's deciding p-value is adjusted (the weakest corrected judge's,
 * corrected_decision.p_value, when a judge decides; else the paired test's
 * p_value) into `adjusted_p_value`, and `significant` then needs it below
 * alpha as well: a metric is significant when it was before (the interval,
 * or p < alpha, and the effect at least minEffect) and its adjusted p-value
 * is below alpha. Since an adjusted p-value is never below its raw one, the
 * raw test's condition adds nothing to the adjusted one's, except the
 * effect size and, with judges, that their intervals agree on the side.
 * With `none`, adjusted_p_value is the raw one and nothing changes.
 *
 * Tests are taken in engine then metric order, so the result does not depend
 * on the order of the records.
 */
export function adjustedComparison(
  engines: EngineComparisons,
  options: { readonly method: PValueAdjustmentMethod; readonly alpha: number },
): { adjustment: PValueAdjustmentRecord; engines: EngineComparisons } {
  const tests = Object.keys(engines)
    .sort(compareText)
    .flatMap((engine) =>
      Object.keys(engines[engine] ?? {})
        .sort(compareText)
        .map((metric) => ({ engine, metric, compared: engines[engine]?.[metric] as MetricComparison })),
    );
  const adjusted = adjustPValues(
    tests.map(({ compared }) => decidingPValue(compared)),
    options.method,
  );
  const result: EngineComparisons = {};
  for (const [index, { engine, metric, compared }] of tests.entries()) {
    const adjustedPValue = adjusted[index] as number;
    const significant = options.method === 'none' ? compared.significant : compared.significant && adjustedPValue < options.alpha;
    result[engine] ??= {};
    result[engine][metric] = { ...compared, significant, adjusted_p_value: adjustedPValue };
  }
  return { adjustment: { method: options.method, family: 'engine_metrics', tests: tests.length, alpha: options.alpha }, engines: result };
}

/** The p-value a metric's decision rests on: the weakest corrected judge's when a judge decides, else the paired test's. */
export function decidingPValue(compared: Pick<MetricComparison, 'p_value' | 'corrected_decision'>): number {
  return compared.corrected_decision?.p_value ?? compared.p_value;
}
