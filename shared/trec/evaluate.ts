import { DEFAULT_MEASURE_OPTIONS, type MeasureOptions } from '../metrics/registry.js';
import type { JudgedRanking } from '../metrics/judged-ranking.js';
import type { SelectedMeasure } from './measure-selection.js';
import type { Qrels, TopicJudgments } from './qrels.js';
import { rankTopic } from './rank-topic.js';
import { compareBytes } from './trec-order.js';
import type { Run } from './run.js';
import type { Result } from '../schema/result.js';

export interface EvaluationOptions extends MeasureOptions {
  /** trec_eval -c: average over every qrels topic, scoring topics missing from the run as 0. */
  readonly complete: boolean;
}

export const DEFAULT_EVALUATION_OPTIONS: EvaluationOptions = { ...DEFAULT_MEASURE_OPTIONS, complete: false };

export interface MeasureValue {
  /** trec_eval's printed name: `P_5`, `ndcg_cut_10`, `runid`. */
  readonly name: string;
  readonly value: number | string;
  /** Printed as an integer (counts) rather than with four decimals. */
  readonly integer: boolean;
}

export interface TopicEvaluation {
  readonly topicId: string;
  readonly values: MeasureValue[];
}

export interface Evaluation {
  readonly perTopic: TopicEvaluation[];
  readonly summary: MeasureValue[];
}

/**
 * Evaluates a run against qrels with trec_eval's semantics:
 * - topics are the qrels topics, in byte order of their ids; topics only in
 *   the run are ignored;
 * - a qrels topic missing from the run is skipped (trec_eval 9.x; 10.0 aborts
 *   instead), or with `complete` (-c) scored 0 on every measure and counted;
 * - summary values are sums for the counts and arithmetic means otherwise,
 *   accumulated in topic order as trec_eval does, so the bits agree.
 */
export function evaluateRun(
  qrels: Qrels,
  run: Run,
  measures: readonly SelectedMeasure[],
  options: EvaluationOptions = DEFAULT_EVALUATION_OPTIONS,
): Result<Evaluation> {
  const rankingOf = (topicId: string): JudgedRanking | undefined => {
    const topicRun = run.topics.get(topicId);
    return topicRun === undefined ? undefined : rankTopic(topicRun, qrels.get(topicId));
  };
  return evaluateRanked(qrels, { rankingOf, runId: run.runId }, measures, options);
}

/** A run as rankings: each qrels topic's judged ranking, undefined for a topic the run does not retrieve, and the run id. */
export interface RankedRun {
  readonly rankingOf: (topicId: string) => JudgedRanking | undefined;
  readonly runId: string;
}

/** evaluateRun on a run already ranked (run-kernel.ts ranks in WebAssembly). */
export function evaluateRanked(
  qrels: Qrels,
  run: RankedRun,
  measures: readonly SelectedMeasure[],
  options: EvaluationOptions = DEFAULT_EVALUATION_OPTIONS,
): Result<Evaluation> {
  const queryMeasures = measures.flatMap((selected) => (selected.kind === 'query' ? [selected.measure] : []));
  const sums = new Float64Array(queryMeasures.length);
  const perTopic: TopicEvaluation[] = [];
  for (const topicId of [...qrels.keys()].sort(compareBytes)) {
    const ranking = run.rankingOf(topicId);
    if (ranking === undefined && !options.complete) continue;
    perTopic.push({ topicId, values: evaluateTopic(ranking ?? unretrieved(qrels.get(topicId)), queryMeasures, options, sums) });
  }
  if (perTopic.length === 0) {
    return { ok: false, error: 'No topic has both judgments and results: check that the qrels and the run use the same topic ids' };
  }
  const summary: MeasureValue[] = [];
  let queryIndex = 0;
  for (const selected of measures) {
    if (selected.kind === 'collection') {
      summary.push(
        selected.name === 'runid'
          ? { name: 'runid', value: run.runId, integer: false }
          : { name: 'num_q', value: perTopic.length, integer: true },
      );
      continue;
    }
    const { measure } = selected;
    const sum = sums[queryIndex++] as number;
    summary.push({ name: measure.trecName, value: measure.aggregate === 'sum' ? sum : sum / perTopic.length, integer: measure.integer });
  }
  return { ok: true, value: { perTopic, summary } };
}

function evaluateTopic(
  ranking: JudgedRanking,
  measures: readonly SelectedMeasureQuery[],
  options: MeasureOptions,
  sums: Float64Array,
): MeasureValue[] {
  return measures.map((measure, index) => {
    // trec_eval's measures are defined for every topic; 0 stands in where assay's would be undefined.
    const value = measure.compute(ranking, options) ?? 0;
    sums[index] = (sums[index] as number) + value;
    return { name: measure.trecName, value, integer: measure.integer };
  });
}

type SelectedMeasureQuery = Extract<SelectedMeasure, { kind: 'query' }>['measure'];

/** The ranking of a qrels topic the run does not retrieve (trec_eval -c scores it 0): no documents, the topic's judgments. */
function unretrieved(judgments: TopicJudgments | undefined): JudgedRanking {
  return { grades: new Int32Array(0), gradeCounts: judgments?.gradeCounts ?? [] };
}
