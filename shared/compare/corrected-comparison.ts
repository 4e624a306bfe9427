import { isCorrectableMetric, parseJudgeTwin } from '../metrics/judge-twin-names.js';
import { reportEstimate } from '../report/corrected-estimates.js';
import { compareText } from '../report/ordering.js';
import type { CorrectedEstimate } from '../schema/report.js';
import { addCase, emptyPairedSums, type PairedSums } from '../statistics/prediction-powered-mean.js';
import { comparableValue } from './compared-metrics.js';
import type { CaseIndex } from './paired-values.js';

/**
 * A human metric of one engine, run A against run B, corrected by each judge
 * both runs have a twin of it from (shared/metrics/judge-twin-names.ts): a
 * ground-truth metric by each relevance judge (its value of the metric with
 * its grades as the qrels), a human verdict `<scope>/human/<judge>/rating`
 * by the answer judge's rating (yes = 1, no = 0). The judge's per-case
 * difference b − a on every case both runs have it for, the human difference
 * on the cases labelled in both.
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
  if (!isCorrectableMetric(metric)) return undefined;
  const casesOfA = a.get(engine);
  const casesOfB = b.get(engine);
  if (casesOfA === undefined || casesOfB === undefined) return undefined;
  const requestIds = [...casesOfA.keys()].filter((requestId) => casesOfB.has(requestId)).sort(compareText);
  const byJudge = new Map<string, PairedSums>();
  for (const requestId of requestIds) {
    const before = casesOfA.get(requestId) ?? {};
    const after = casesOfB.get(requestId) ?? {};
    const human = difference(metric, ownValue(before, metric), ownValue(after, metric));
    for (const name of Object.keys(after)) {
      const twin = parseJudgeTwin(name);
      if (twin === undefined || twin.human !== metric) continue;
      const judged = difference(name, ownValue(before, name), after[name]);
      if (judged === undefined) continue;
      const sums = byJudge.get(twin.judge) ?? emptyPairedSums();
      byJudge.set(twin.judge, sums);
      addCase(sums, judged, human);
    }
  }
  if (byJudge.size === 0) return undefined;
  const settings = { level: 1 - options.alpha, minLabelled: options.minLabelled };
  return Object.fromEntries(
    [...byJudge]
      .sort(([left], [right]) => compareText(left, right))
      .map(([judge, sums]) => [judge, reportEstimate(sums, settings, 'superpopulation')]),
  );
}

function ownValue(
  metrics: Readonly<Record<string, Parameters<typeof comparableValue>[1]>>,
  name: string,
): Parameters<typeof comparableValue>[1] {
  return Object.hasOwn(metrics, name) ? metrics[name] : undefined;
}

/** b − a of one case, when both runs have a number (or a yes/no rating) for it. */
function difference(
  metric: string,
  before: Parameters<typeof comparableValue>[1],
  after: Parameters<typeof comparableValue>[1],
): number | undefined {
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
    estimate.corrected === undefined || estimate.p_value === undefined
      ? []
      : [{ judge, interval: estimate.corrected, p_value: estimate.p_value }],
  );
  if (withInterval.length === 0) return undefined;
  const weakest = withInterval.reduce((left, right) => (right.p_value > left.p_value ? right : left));
  const below = withInterval.every(({ interval }) => interval.high < 0 && Math.abs(interval.mean) >= minEffect);
  const above = withInterval.every(({ interval }) => interval.low > 0 && Math.abs(interval.mean) >= minEffect);
  return { significant: below || above, judge: weakest.judge, delta: weakest.interval.mean, p_value: weakest.p_value };
}
