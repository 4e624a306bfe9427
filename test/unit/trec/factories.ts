import type { Evaluation, MeasureValue, TopicEvaluation } from '../../../shared/trec/evaluate.js';
import { topicJudgmentsOf, type Qrels, type TopicJudgments } from '../../../shared/trec/qrels.js';
import { topicRunOf, type Run, type TopicRun } from '../../../shared/trec/run.js';

/** One retrieved line of a run: docno and score (the rank column plays no part). */
export type RunLine = readonly [documentId: string, score: number];

/** The judgments of one topic from `{ docno: grade }`. */
export function judgments(grades: Readonly<Record<string, number>>): TopicJudgments {
  return topicJudgmentsOf(Object.entries(grades));
}

/** One topic of a run, lines in file order. */
export function topicRun(lines: readonly RunLine[]): TopicRun {
  return topicRunOf(lines);
}

/** Qrels from `[topic, { docno: grade }]` pairs (pairs, so numeric topic ids keep their order). */
export function qrels(topics: readonly (readonly [string, Readonly<Record<string, number>>])[]): Qrels {
  return new Map(topics.map(([topicId, grades]) => [topicId, judgments(grades)]));
}

/** A run from `[topic, lines]` pairs and its run tag. */
export function run(topics: readonly (readonly [string, readonly RunLine[]])[], runId = 'test-run'): Run {
  return { topics: new Map(topics.map(([topicId, lines]) => [topicId, topicRun(lines)])), runId };
}

/** A value as evaluateRun reports it. */
export function measureValue(name: string, value: number | string, integer = false): MeasureValue {
  return { name, value, integer };
}

/** An evaluation with the given per-topic and summary values. */
export function evaluation(perTopic: readonly TopicEvaluation[], summary: readonly MeasureValue[]): Evaluation {
  return { perTopic: [...perTopic], summary: [...summary] };
}
