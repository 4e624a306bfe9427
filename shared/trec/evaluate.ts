import { DEFAULT_MEASURE_OPTIONS, type MeasureOptions } from '../metrics/registry.js';
import type { JudgedRanking } from '../metrics/judged-ranking.js';
import type { SelectedMeasure } from './measure-selection.js';
import type { Qrels } from './qrels.js';
import { rankTopic } from './rank-topic.js';
import { compareBytes } from './trec-order.js';
import { topicRunOf, type Run } from './run.js';

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

export type EvaluationResult = { ok: true; evaluation: Evaluation } | { ok: false; error: string };

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
): EvaluationResult {
  const queryMeasures = measures.flatMap((selected) => (selected.kind === 'query' ? [selected.measure] : []));
  const sums = new Float64Array(queryMeasures.length);
  const perTopic: TopicEvaluation[] = [];
  const emptyRun = topicRunOf([]);
  for (const topicId of [...qrels.keys()].sort(compareBytes)) {
    const topicRun = run.topics.get(topicId);
    if (topicRun === undefined && !options.complete) continue;
    const ranking = rankTopic(topicRun ?? emptyRun, qrels.get(topicId));
    perTopic.push({ topicId, values: evaluateTopic(ranking, queryMeasures, options, sums) });
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
  return { ok: true, evaluation: { perTopic, summary } };
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
