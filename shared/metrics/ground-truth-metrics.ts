import { averagePrecision } from './average-precision.js';
import { countGrades, JUDGED_NEGATIVE, NOT_JUDGED, type JudgedRanking } from './judged-ranking.js';
import { ndcgAt } from './ndcg-cut.js';
import { precisionAt } from './precision.js';
import { recallAt } from './recall.js';
import { reciprocalRank } from './reciprocal-rank.js';
import type { EngineOutput, EvalCase, ExpectedDocument } from '../schema/eval-case.js';
import type { MetricValue } from '../schema/metric-value.js';

export const DEFAULT_CUTOFFS: readonly number[] = [5, 10];

/**
 * The ground-truth metrics of one engine for a labelled case, named
 * `retrieval/ground_truth/<metric>`: precision@k, recall@k and ndcg@k for each
 * cutoff, average_precision, reciprocal_rank and document_recall, with
 * trec_eval's semantics (shared/metrics): relevant means grade >= 1 (a label
 * without a grade is grade 1), NDCG gains are the grades and its ideal ranking
 * uses every labelled document, retrieved or not.
 *
 * A document retrieved several times (several chunks of one document) counts
 * once, at its first rank: trec_eval would refuse the duplicate, and counting
 * it twice would reward an engine for repeating itself. What depends on the
 * labels alone is made once a case, for all its engines (judgedOf).
 *
 * An unlabelled case (no expected_retrieved_context) has no ground-truth
 * metrics at all, so averages run over labelled cases only; nor has an
 * engine that retrieved nothing for the case: as trec_eval without -c, an
 * engine's averages run over the topics it retrieved for.
 */
export function groundTruthMetrics(
  evalCase: EvalCase,
  output: EngineOutput,
  cutoffs: readonly number[] = DEFAULT_CUTOFFS,
): Record<string, MetricValue> {
  const labels = evalCase.expected_retrieved_context;
  if (labels === undefined || labels.length === 0 || output.retrieved_context.length === 0) return {};
  const { judgments, relevant, gradeCounts } = judgedOf(labels);
  const retrieved = output.retrieved_context.map((chunk) => chunk.doc_uri);
  const distinct = new Set(retrieved);
  // A list of distinct documents, as most are, is its own ranking.
  const ranked = distinct.size === retrieved.length ? retrieved : [...distinct];
  // judgeRanking(ranked, judgments), with the grade counts made once a case.
  const grades = new Int32Array(ranked.length);
  ranked.forEach((uri, index) => {
    const grade = judgments.get(uri);
    grades[index] = grade === undefined ? NOT_JUDGED : grade < 0 ? JUDGED_NEGATIVE : grade;
  });
  const ranking: JudgedRanking = { grades, gradeCounts };
  const metrics: Record<string, MetricValue> = {};
  const prefix = 'retrieval/ground_truth';
  for (const k of cutoffs) {
    metrics[`${prefix}/precision@${k}`] = precisionAt(ranking, k, 1);
    metrics[`${prefix}/recall@${k}`] = recallAt(ranking, k, 1);
    metrics[`${prefix}/ndcg@${k}`] = ndcgAt(ranking, k);
  }
  metrics[`${prefix}/average_precision`] = averagePrecision(ranking, 1);
  metrics[`${prefix}/reciprocal_rank`] = reciprocalRank(ranking, 1);
  // documentRecall(ranked, relevant), with the relevant set made once a case: `ranked` holds each document once.
  if (relevant.size > 0) {
    let found = 0;
    for (const uri of ranked) if (relevant.has(uri)) found++;
    metrics[`${prefix}/document_recall`] = found / relevant.size;
  }
  return metrics;
}

/**
 * A case's labels as grades by document (the first label of a document
 * counts; no grade is grade 1) and the set of relevant documents, made once
 * for all the engines of the case: a TREC topic has a thousand labels or more,
 * and seventeen runs or more.
 */
interface CaseJudgments {
  readonly judgments: ReadonlyMap<string, number>;
  readonly relevant: ReadonlySet<string>;
  readonly gradeCounts: readonly number[];
}

const judgedByLabels = new WeakMap<readonly ExpectedDocument[], CaseJudgments>();

function judgedOf(labels: readonly ExpectedDocument[]): CaseJudgments {
  let judged = judgedByLabels.get(labels);
  if (judged === undefined) {
    const judgments = new Map<string, number>();
    for (const label of labels) if (!judgments.has(label.doc_uri)) judgments.set(label.doc_uri, label.grade ?? 1);
    const relevant = new Set<string>();
    for (const [uri, grade] of judgments) if (grade >= 1) relevant.add(uri);
    judged = { judgments, relevant, gradeCounts: countGrades(judgments.values()) };
    judgedByLabels.set(labels, judged);
  }
  return judged;
}
