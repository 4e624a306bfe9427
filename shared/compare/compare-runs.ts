import { mean } from '../report/metric-statistics.js';
import { compareText, sortedRecord } from '../report/ordering.js';
import type { RunComparison } from '../schema/compare-json.js';
import type { CaseLine, CorrectedEstimate, MetricComparison, Report } from '../schema/report.js';
import { bootstrapMeanInterval, type Interval } from '../statistics/bootstrap-mean-interval.js';
import { largeSamplePairedStatistics } from '../statistics/large-sample-paired.js';
import { pairedRandomizationTest } from '../statistics/paired-randomization-test.js';
import { pairedTTest } from '../statistics/paired-t-test.js';
import { DEFAULT_BASELINE_ADJUSTMENT, type PValueAdjustmentMethod } from '../schema/p-value-adjustment.js';
import { adjustedComparison } from './adjusted-comparison.js';
import { aggregatedMetrics } from './compared-metrics.js';
import { correctedComparison, correctedDecision } from './corrected-comparison.js';
import { DEFAULT_MIN_LABELLED } from '../statistics/prediction-powered-mean.js';
import { indexCases, pairedValues } from './paired-values.js';

/** Up to this many pairs a metric is compared by resampling; above it by the normal limits of the same statistics. */
export const EXACT_COMPARISON_LIMIT = 20_000;

/** A run's report folder as values: report.json and the lines of cases.jsonl. */
export interface RunFiles {
  report: Report;
  cases: readonly CaseLine[];
}

export interface CompareOptions {
  /** Metrics to compare; default: every metric the reports aggregate as a number (see `aggregatedMetrics`). */
  metrics?: readonly string[];
  /** Significance level, strictly between 0 and 1. Default 0.05. */
  alpha?: number;
  /** Smallest |delta| that counts as significant, 0 and up. Default 0. */
  minEffect?: number;
  /** Sign flips of the randomization test. Default 10,000. */
  permutations?: number;
  /** Seeds the randomization test and the bootstrap. Default 42. */
  seed?: number;
  /** The fewest cases labelled in both runs a corrected difference is given an interval for. Default 8, as run.corrected_estimates. */
  minLabelled?: number;
  /** How the p-values are adjusted across every engine × metric compared (adjusted-comparison.ts). Default holm, as run.p_value_adjustment.baseline. */
  adjustment?: PValueAdjustmentMethod;
}

export interface Regression {
  engine: string;
  metric: string;
  /** The paired delta, or the corrected one when the judge decided. */
  delta: number;
  p_value: number;
  /** p_value adjusted across the comparison, when it was. */
  adjusted_p_value?: number;
  /** The judge whose corrected interval decided, when one did. */
  judge?: string;
}

/**
 * Compares two runs case by case. For every engine of both runs and every
 * metric, the cases are paired by request_id (see `pairedValues`): only
 * cases where both runs have a finite number (or a yes/no rating) count.
 * With the n pairs (a_i, b_i) and d_i = b_i - a_i:
 *
 *   a = (1/n) Σ a_i,   b = (1/n) Σ b_i,   delta = b - a,   relative_delta = delta / |a|
 *   p_value        = Fisher's paired randomization test on the d_i (two-sided)
 *   t_test_p_value = Student's paired t-test on the d_i (two-sided)
 *   significant    = p_value < alpha and |delta| >= minEffect, and
 *                    adjusted_p_value < alpha (below)
 *
 * Every metric is taken as higher-is-better (assay has no lower-is-better
 * metric yet): a significant negative delta is a regression of B.
 *
 * A ground-truth metric whose relevance judge's twin both runs have (or a
 * human verdict `<scope>/human/<judge>/rating` whose judge rated both runs)
 * is also compared corrected by the judge (`corrected`): the judge's per-case
 * difference on every case, the human one on the labelled cases. When a
 * judge gives an interval, `significant` is the corrected decision
 * (`correctedDecision`) and not the paired test's on the labelled cases alone.
 *
 * The deciding p-values of every engine × metric are then adjusted across
 * that family (`adjustment`, Holm's method unless told otherwise:
 * adjusted-comparison.ts), and a metric is significant only when its
 * adjusted p-value is below alpha too: compared over 37 engines × 11
 * metrics, about 20 unchanged metrics would pass p < 0.05 by chance alone.
 *
 * - A metric with no pair (n = 0) is left out, and an engine with no metric.
 * - Every test uses the same seed, so a metric's p-value does not depend on
 *   which other metrics are compared; the same inputs give the same output,
 *   bit for bit, whatever the order of the case lines.
 * - Small samples: with n <= 13 the randomization test enumerates all 2^n
 *   sign patterns and its p-value is at least 2 / 2^n; below 6 pairs no
 *   difference is significant at 0.05.
 * - A case line twice in one run, or options out of range, is a bug of the
 *   caller and throws (the CLI checks both first).
 */
export function compareRuns(a: RunFiles, b: RunFiles, options: CompareOptions = {}): RunComparison {
  const { alpha, minEffect, permutations, seed, minLabelled } = { ...DEFAULT_COMPARE_OPTIONS, ...definedOptions(options) };
  const adjustment = options.adjustment ?? DEFAULT_COMPARE_OPTIONS.adjustment;
  if (!(alpha > 0 && alpha < 1)) throw new RangeError(`Expected alpha to be between 0 and 1 (exclusive), got ${alpha}`);
  if (!(minEffect >= 0) || !Number.isFinite(minEffect))
    throw new RangeError(`Expected minEffect to be a finite number from 0 and up, got ${minEffect}`);

  const metrics = [...new Set(options.metrics ?? aggregatedMetrics([a.report, b.report]))].sort(compareText);
  const casesOfA = indexCases(a.cases);
  const casesOfB = indexCases(b.cases);
  const engines = [...casesOfA.keys()].filter((engine) => casesOfB.has(engine)).sort(compareText);

  const comparedEngines: [string, Record<string, MetricComparison>][] = [];
  for (const engine of engines) {
    const compared: [string, MetricComparison][] = [];
    for (const metric of metrics) {
      const pairs = pairedValues(casesOfA, casesOfB, engine, metric);
      if (pairs.a.length === 0) continue;
      const plain = compareMetric(pairs.a, pairs.b, { alpha, minEffect, permutations, seed });
      compared.push([
        metric,
        withCorrection(plain, correctedComparison(casesOfA, casesOfB, engine, metric, { alpha, minLabelled }), minEffect),
      ]);
    }
    if (compared.length > 0) comparedEngines.push([engine, sortedRecord(compared)]);
  }
  return adjustedComparison(sortedRecord(comparedEngines), { method: adjustment, alpha });
}

/** compareRuns' options when left out. */
export const DEFAULT_COMPARE_OPTIONS = {
  alpha: 0.05,
  minEffect: 0,
  permutations: 10_000,
  seed: 42,
  minLabelled: DEFAULT_MIN_LABELLED,
  adjustment: DEFAULT_BASELINE_ADJUSTMENT,
} as const;

function definedOptions(options: CompareOptions): Partial<Record<'alpha' | 'minEffect' | 'permutations' | 'seed' | 'minLabelled', number>> {
  return Object.fromEntries(
    Object.entries({
      alpha: options.alpha,
      minEffect: options.minEffect,
      permutations: options.permutations,
      seed: options.seed,
      minLabelled: options.minLabelled,
    }).filter(([, value]) => value !== undefined),
  );
}

/** The comparison with its corrected differences; when a judge gives an interval, the decision is theirs. */
function withCorrection(
  plain: MetricComparison,
  corrected: Record<string, CorrectedEstimate> | undefined,
  minEffect: number,
): MetricComparison {
  if (corrected === undefined) return plain;
  const decision = correctedDecision(corrected, minEffect);
  if (decision === undefined) return { ...plain, corrected };
  const { significant, ...decidedBy } = decision;
  return { ...plain, significant, corrected, corrected_decision: decidedBy };
}

/** One metric's comparison from its pairs: a[i] and b[i] are one case (see compareRuns). */
export function compareMetric(
  valuesOfA: readonly number[],
  valuesOfB: readonly number[],
  options: { alpha: number; minEffect: number; permutations: number; seed: number },
): MetricComparison {
  const deltas = valuesOfB.map((value, index) => value - (valuesOfA[index] as number));
  // n >= 1 here, and the values are finite, so both means exist.
  const meanOfA = mean(valuesOfA) as number;
  const meanOfB = mean(valuesOfB) as number;
  const delta = meanOfB - meanOfA;
  const large = deltas.length > EXACT_COMPARISON_LIMIT ? largeSamplePairedStatistics(deltas, 1 - options.alpha) : undefined;
  const pValue = large?.pValue ?? pairedRandomizationTest(deltas, { permutations: options.permutations, seed: options.seed });
  const interval = large?.interval ?? (bootstrapMeanInterval(deltas, { seed: options.seed, level: 1 - options.alpha }) as Interval);
  return {
    a: meanOfA,
    b: meanOfB,
    delta,
    relative_delta: meanOfA === 0 ? null : delta / Math.abs(meanOfA),
    p_value: pValue,
    t_test_p_value: pairedTTest(deltas).pValue,
    significant: pValue < options.alpha && Math.abs(delta) >= options.minEffect,
    n: deltas.length,
    wins: deltas.filter((difference) => difference > 0).length,
    losses: deltas.filter((difference) => difference < 0).length,
    ties: deltas.filter((difference) => difference === 0).length,
    delta_interval: interval,
  };
}

/**
 * The metrics that got significantly worse from A to B (significant and
 * delta < 0; every metric is higher-is-better), by engine then metric.
 */
export function regressions(comparison: Pick<RunComparison, 'engines'>): Regression[] {
  const found: Regression[] = [];
  for (const engine of Object.keys(comparison.engines).sort(compareText)) {
    const metrics = comparison.engines[engine] ?? {};
    for (const metric of Object.keys(metrics).sort(compareText)) {
      const compared = metrics[metric];
      if (compared?.significant !== true) continue;
      const decision = compared.corrected_decision;
      const adjusted = compared.adjusted_p_value === undefined ? {} : { adjusted_p_value: compared.adjusted_p_value };
      if (decision !== undefined) {
        if (decision.delta < 0)
          found.push({ engine, metric, delta: decision.delta, p_value: decision.p_value, ...adjusted, judge: decision.judge });
      } else if (compared.delta < 0) found.push({ engine, metric, delta: compared.delta, p_value: compared.p_value, ...adjusted });
    }
  }
  return found;
}
