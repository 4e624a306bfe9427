import type { Measure, MeasureOptions } from '../metrics/registry.js';
import { percentileBootstrapInterval, type IntervalResult, type PercentileBootstrapOptions } from '../statistics/bootstrap-interval.js';
import { kendallTauB } from '../statistics/kendall-tau.js';
import { spearmanRho } from '../statistics/spearman-rho.js';
import type { Statistic } from '../statistics/statistic.js';
import { evaluateRun } from '../trec/evaluate.js';
import type { Qrels } from '../trec/qrels.js';
import type { Run } from '../trec/run.js';
import { compareBytes } from '../trec/trec-order.js';
import type { Failed, Result } from '../schema/result.js';

export interface NamedRun {
  readonly name: string;
  readonly run: Run;
}

/** How the two label sets rank the same systems. */
export interface SystemAgreement {
  /** trec_eval's printed name of the measure: `ndcg_cut_10`, `map`, `P_10`. */
  readonly measure: string;
  /** Each run's value under the human and the judge qrels, in the order of the runs. */
  readonly human: readonly number[];
  readonly judge: readonly number[];
  readonly kendallTau: Statistic;
  readonly spearmanRho: Statistic;
  readonly kendallTauInterval: IntervalResult;
}

/** One run's per-topic values under one qrels, indexed by position in the list of all topics. */
interface TopicSeries {
  readonly values: Float64Array;
  readonly covered: Uint8Array;
}

/**
 * Scores every run with `measure` under both qrels, as `assay ir-metrics`
 * (trec_eval without -c) does: the mean over the qrels topics the run has
 * results for, topics without relevant documents counting as 0; topics only in
 * the run are ignored. Then correlates the two lists of values: Kendall's
 * tau-b and Spearman's rho.
 *
 * The interval of tau resamples topics: the topics are every topic some run is
 * scored on under either qrels; a resample draws that many topics with
 * replacement, every run's value under each qrels becomes the mean of its
 * per-topic values over the drawn topics it is scored on (a topic drawn twice
 * counts twice), and tau is computed from those means. A resample where some
 * run has no drawn topic under one qrels, or where tau is undefined, is left
 * out (the interval reports how many were used).
 */
export function systemAgreement(
  runs: readonly NamedRun[],
  qrels: { human: Qrels; judge: Qrels },
  measure: Measure,
  options: MeasureOptions,
  bootstrap: PercentileBootstrapOptions,
): Result<SystemAgreement> {
  const scored = { human: [] as Map<string, number>[], judge: [] as Map<string, number>[] };
  const means = { human: [] as number[], judge: [] as number[] };
  for (const { name, run } of runs) {
    for (const labels of ['human', 'judge'] as const) {
      const result = evaluateRun(qrels[labels], run, [{ kind: 'query', measure }], { ...options, complete: false });
      if (!result.ok) return { ok: false, error: `Run ${name} against the ${labels} qrels: ${result.error}` };
      scored[labels].push(new Map(result.value.perTopic.map((topic) => [topic.topicId, topic.values[0]?.value as number])));
      means[labels].push(result.value.summary[0]?.value as number);
    }
  }
  const topics = [...new Set([...scored.human, ...scored.judge].flatMap((perTopic) => [...perTopic.keys()]))].sort(compareBytes);
  const series = {
    human: scored.human.map((perTopic) => seriesOf(perTopic, topics)),
    judge: scored.judge.map((perTopic) => seriesOf(perTopic, topics)),
  };
  const degenerate = degenerateRanking(means, measure.trecName);
  const kendallTauInterval =
    degenerate ?? percentileBootstrapInterval(topics.length, (indices) => resampledTau(indices, topics.length, series), bootstrap);
  return {
    ok: true,
    value: {
      measure: measure.trecName,
      human: means.human,
      judge: means.judge,
      kendallTau: degenerate ?? kendallTauB(means.human, means.judge),
      spearmanRho: degenerate ?? spearmanRho(means.human, means.judge),
      kendallTauInterval,
    },
  };
}

/** Why no correlation of the two lists exists, said in terms of runs and qrels; undefined when one does. */
function degenerateRanking(means: { human: readonly number[]; judge: readonly number[] }, measure: string): Failed | undefined {
  if (means.human.length < 2) return { ok: false, error: `needs at least 2 runs to rank, got ${means.human.length}` };
  for (const labels of ['human', 'judge'] as const) {
    const values = means[labels];
    if (values.every((value) => value === values[0]))
      return { ok: false, error: `every run has the same ${measure} under the ${labels} qrels` };
  }
  return undefined;
}

function seriesOf(perTopic: ReadonlyMap<string, number>, topics: readonly string[]): TopicSeries {
  const values = new Float64Array(topics.length);
  const covered = new Uint8Array(topics.length);
  for (const [index, topicId] of topics.entries()) {
    const value = perTopic.get(topicId);
    if (value === undefined) continue;
    values[index] = value;
    covered[index] = 1;
  }
  return { values, covered };
}

function resampledTau(
  indices: Int32Array,
  topicCount: number,
  series: { human: readonly TopicSeries[]; judge: readonly TopicSeries[] },
): number | undefined {
  const draws = new Int32Array(topicCount);
  for (const index of indices) draws[index] = (draws[index] as number) + 1;
  const human = series.human.map((one) => resampledMean(one, draws));
  const judge = series.judge.map((one) => resampledMean(one, draws));
  if (human.some((value) => value === undefined) || judge.some((value) => value === undefined)) return undefined;
  const tau = kendallTauB(human as number[], judge as number[]);
  return tau.ok ? tau.value : undefined;
}

function resampledMean(series: TopicSeries, draws: Int32Array): number | undefined {
  let total = 0;
  let count = 0;
  for (let index = 0; index < draws.length; index++) {
    const times = draws[index] as number;
    if (times === 0 || series.covered[index] === 0) continue;
    total += times * (series.values[index] as number);
    count += times;
  }
  return count === 0 ? undefined : total / count;
}
