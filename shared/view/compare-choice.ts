import type { MetricComparison } from '../schema/report.js';
import type { RunComparison } from '../schema/compare-json.js';
import { isKeyStatistic } from '../report/key-metrics.js';
import { compareText } from '../report/ordering.js';

/** Among changes equal in every other way (when nothing changed, say), the usual headline of a search evaluation comes first. */
const PREFERRED_METRIC = 'retrieval/ground_truth/ndcg@10';

/** One engine and metric of a run comparison. */
export interface ComparedChange {
  readonly engine: string;
  readonly metric: string;
  readonly compared: MetricComparison;
}

/**
 * Why the compare page shows the engine and metric it shows: both named in
 * the address; else the largest significant change; else, none being
 * significant, the largest change; else nothing changed on average.
 */
export type ChoiceReason = 'asked' | 'largest-significant-change' | 'largest-change' | 'no-change';

export interface CompareChoice extends ComparedChange {
  readonly reason: ChoiceReason;
  /** What the choice was made among: every change, the changes of the engine the address names, or of the metric it names. */
  readonly among: 'all' | 'engine' | 'metric';
  /** The engine or metric asked for in the address is not compared, and something else is shown: said on the page. */
  readonly problem?: string;
}

/**
 * Every engine and metric of the comparison, the largest change first:
 * significant before not significant (a significant change is the one a
 * user acts on; a larger one that may be noise comes after); then by
 * |delta|, larger first; a drop before a gain of the same size (a
 * regression is what a nightly eval is read for); then by p-value, smaller
 * first; then ndcg@10 first; then by engine and metric name, so the order
 * never depends on the order of the keys.
 *
 * Only headline metrics (the averages and ratings the reports show; see
 * isKeyStatistic) are ranked when the comparison has any: every other
 * compared number (a judge's token count, say) is not higher-is-better, and
 * its scale is not that of a score. Headline scores lie in [0, 1], but for a
 * judge's numeric rating (1 to 5, say): its delta is compared unscaled, as
 * the page shows it, rather than by a scale the comparison does not know.
 */
export function rankedChanges(comparison: RunComparison): ComparedChange[] {
  return headlineFirst(everyChange(comparison)).sort(byLargestChange);
}

/**
 * The engine and metric whose per-query changes the compare page opens on.
 * What the address names wins when the comparison has it: both named, that
 * pair; the engine alone, that engine's largest change; the metric alone,
 * the engine that changed most on it. The rest is chosen by rankedChanges'
 * order. Undefined when the runs have no engine and metric in common.
 */
export function chooseComparedChange(
  comparison: RunComparison,
  asked: { readonly engine?: string; readonly metric?: string },
): CompareChoice | undefined {
  const every = everyChange(comparison);
  const engineFound = asked.engine !== undefined && every.some((change) => change.engine === asked.engine);
  const ofEngine = engineFound ? every.filter((change) => change.engine === asked.engine) : every;
  const metricFound = asked.metric !== undefined && ofEngine.some((change) => change.metric === asked.metric);
  const candidates = metricFound ? ofEngine.filter((change) => change.metric === asked.metric) : headlineFirst(ofEngine);
  const [chosen] = candidates.sort(byLargestChange);
  if (chosen === undefined) return undefined;
  const problem =
    asked.engine !== undefined && !engineFound
      ? `Engine "${asked.engine}" is not compared in both runs; showing ${chosen.engine}.`
      : asked.metric !== undefined && !metricFound
        ? `Metric "${asked.metric}" is not compared for ${engineFound ? chosen.engine : 'any engine'}; showing ${chosen.metric}.`
        : undefined;
  const among = engineFound ? 'engine' : metricFound ? 'metric' : 'all';
  return {
    ...chosen,
    reason: engineFound && metricFound ? 'asked' : reasonOf(chosen.compared),
    among,
    ...(problem === undefined ? {} : { problem }),
  };
}

/** Whether a change moved on average, and was found significant: what the choice and the page call a significant change. */
export function isSignificantChange(compared: MetricComparison): boolean {
  return compared.significant && compared.delta !== 0;
}

function reasonOf(compared: MetricComparison): ChoiceReason {
  if (isSignificantChange(compared)) return 'largest-significant-change';
  return compared.delta === 0 ? 'no-change' : 'largest-change';
}

function everyChange(comparison: RunComparison): ComparedChange[] {
  return Object.entries(comparison.engines).flatMap(([engine, metrics]) =>
    Object.entries(metrics).map(([metric, compared]) => ({ engine, metric, compared })),
  );
}

/** The headline changes, or every change when none is a headline (a comparison of custom metrics only). */
function headlineFirst(changes: readonly ComparedChange[]): ComparedChange[] {
  const headline = changes.filter((change) => isHeadline(change.metric));
  return headline.length > 0 ? headline : [...changes];
}

/** A compared metric the reports show as a headline: `M/average` or `M/percentage` is a key statistic. */
function isHeadline(metric: string): boolean {
  return isKeyStatistic(`${metric}/average`) || isKeyStatistic(`${metric}/percentage`);
}

function byLargestChange(left: ComparedChange, right: ComparedChange): number {
  return (
    Number(isSignificantChange(right.compared)) - Number(isSignificantChange(left.compared)) ||
    Math.abs(right.compared.delta) - Math.abs(left.compared.delta) ||
    left.compared.delta - right.compared.delta ||
    left.compared.p_value - right.compared.p_value ||
    Number(right.metric === PREFERRED_METRIC) - Number(left.metric === PREFERRED_METRIC) ||
    compareText(left.engine, right.engine) ||
    compareText(left.metric, right.metric)
  );
}
