import { relevantCount, type JudgedRanking } from './judged-ranking.js';
import { relevantInTop } from './precision.js';

/**
 * Recall at cutoff k (trec_eval `recall.k`, assay `recall@k`).
 *
 *   recall@k = |{ i <= min(k, n) : grade_i >= level }| / R
 *
 * R is the number of documents in the qrels with grade >= level, retrieved or
 * not. R = 0 gives 0 (trec_eval's convention), never NaN. Fewer than k
 * results: the count stops at n.
 */
export function recallAt(ranking: JudgedRanking, k: number, relevanceLevel: number): number {
  const relevant = relevantCount(ranking, relevanceLevel);
  if (relevant === 0) return 0;
  return relevantInTop(ranking, k, relevanceLevel) / relevant;
}
