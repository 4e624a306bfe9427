import { averagePrecision } from './average-precision.js';
import { documentRecall } from './document-recall.js';
import { judgeRanking } from './judged-ranking.js';
import { ndcgAt } from './ndcg-cut.js';
import { precisionAt } from './precision.js';
import { recallAt } from './recall.js';
import { reciprocalRank } from './reciprocal-rank.js';
import type { EngineOutput, EvalCase } from '../schema/eval-case.js';
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
 * it twice would reward an engine for repeating itself.
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
  const judgments = new Map<string, number>();
  for (const label of labels) if (!judgments.has(label.doc_uri)) judgments.set(label.doc_uri, label.grade ?? 1);
  const retrieved = output.retrieved_context.map((chunk) => chunk.doc_uri);
  const distinct = new Set(retrieved);
  // A list of distinct documents, as most are, is its own ranking.
  const ranked = distinct.size === retrieved.length ? retrieved : [...distinct];
  const ranking = judgeRanking(ranked, judgments);
  const metrics: Record<string, MetricValue> = {};
  const prefix = 'retrieval/ground_truth';
  for (const k of cutoffs) {
    metrics[`${prefix}/precision@${k}`] = precisionAt(ranking, k, 1);
    metrics[`${prefix}/recall@${k}`] = recallAt(ranking, k, 1);
    metrics[`${prefix}/ndcg@${k}`] = ndcgAt(ranking, k);
  }
  metrics[`${prefix}/average_precision`] = averagePrecision(ranking, 1);
  metrics[`${prefix}/reciprocal_rank`] = reciprocalRank(ranking, 1);
  const relevant = [...judgments].filter(([, grade]) => grade >= 1).map(([uri]) => uri);
  const recall = documentRecall(ranked, relevant);
  if (recall !== undefined) metrics[`${prefix}/document_recall`] = recall;
  return metrics;
}
