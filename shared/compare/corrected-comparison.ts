import { GROUND_TRUTH_PREFIX, parseJudgeTwin } from '../metrics/judge-twin-names.js';
import { estimateOf } from '../report/corrected-estimates.js';
import { compareText } from '../report/ordering.js';
import type { CorrectedEstimate } from '../schema/report.js';
import { addCase, emptyPairedSums, type PairedSums } from '../statistics/prediction-powered-mean.js';
import { comparableValue } from './compared-metrics.js';
import type { CaseIndex } from './paired-values.js';

/**
 * A ground-truth metric of one engine, run A against run B, corrected by each
 * relevance judge both runs have: the judge's per-case difference b − a (its
 * twin of the metric, shared/metrics/judge-twin-names.ts) on every case both
 * runs have it for, the human difference on the cases labelled in both.
 * The interval is for the mean difference over the queries the cases stand
 * for (superpopulation), at level 1 − alpha, as the paired tests read theirs.
 * Undefined for any other metric, or when no judge has a twin in both runs.
 */
export function correctedComparison(
  a: CaseIndex,
  b: CaseIndex,
  engine: string,
  metric: string,
  options: { readonly alpha: number; readonly minLabelled: number },
): Record<string, CorrectedEstimate> | undefined {
  if (!metric.startsWith(GROUND_TRUTH_PREFIX)) return undefined;
  const casesOfA = a.get(engine);
  const casesOfB = b.get(engine);
  if (casesOfA === undefined || casesOfB === undefined) return undefined;
  const groundTruth = metric.slice(GROUND_TRUTH_PREFIX.length);
  const requestIds = [...casesOfA.keys()].filter((requestId) => casesOfB.has(requestId)).sort(compareText);
  const byJudge = new Map<string, PairedSums>();
  for (const requestId of requestIds) {
    const before = casesOfA.get(requestId) ?? {};
    const after = casesOfB.get(requestId) ?? {};
    const human = difference(metric, before[metric], after[metric]);
    for (const name of Object.keys(after)) {
      const twin = parseJudgeTwin(name);
      if (twin === undefined || twin.metric !== groundTruth) continue;
      const judged = difference(name, Object.hasOwn(before, name) ? before[name] : undefined, after[name]);
      if (judged === undefined) continue;
      const sums = byJudge.get(twin.judge) ?? emptyPairedSums();
      byJudge.set(twin.judge, sums);
      addCase(sums, judged, human);
    }
  }
  if (byJudge.size === 0) return undefined;
  const settings = { level: 1 - options.alpha, minLabelled: options.minLabelled };
  return Object.fromEntries([...byJudge].sort(([left], [right]) => compareText(left, right)).map(([judge, sums]) => [judge, estimateOf(sums, settings, 'superpopulation')]));
}

/** b − a of one case, when both runs have a number for it. */
function difference(metric: string, before: Parameters<typeof comparableValue>[1], after: Parameters<typeof comparableValue>[1]): number | undefined {
  const valueOfA = comparableValue(metric, before);
  const valueOfB = comparableValue(metric, after);
  return valueOfA === undefined || valueOfB === undefined ? undefined : valueOfB - valueOfA;
}

/**
 * The decision the corrected intervals give, when at least one judge gives
 * one: significant when every judge with an interval finds the difference
 * (its interval at 1 − alpha leaves out 0, all on the same side) and its mean
 * is at least minEffect from 0. The judge with the weakest evidence (largest
 * p-value) gives the delta and the p-value reported.
 */
export function correctedDecision(
  corrected: Readonly<Record<string, CorrectedEstimate>>,
  minEffect: number,
): { significant: boolean; judge: string; delta: number; p_value: number } | undefined {
  const withInterval = Object.entries(corrected).flatMap(([judge, estimate]) =>
    estimate.corrected === undefined || estimate.p_value === undefined ? [] : [{ judge, interval: estimate.corrected, p_value: estimate.p_value }],
  );
  if (withInterval.length === 0) return undefined;
  const weakest = withInterval.reduce((left, right) => (right.p_value > left.p_value ? right : left));
  const below = withInterval.every(({ interval }) => interval.high < 0 && Math.abs(interval.mean) >= minEffect);
  const above = withInterval.every(({ interval }) => interval.low > 0 && Math.abs(interval.mean) >= minEffect);
  return { significant: below || above, judge: weakest.judge, delta: weakest.interval.mean, p_value: weakest.p_value };
}
