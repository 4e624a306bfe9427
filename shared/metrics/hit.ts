import type { JudgedRanking } from './judged-ranking.js';
import { relevantInTop } from './precision.js';

/**
 * Hit at cutoff k (assay `hit@k`; trec_eval calls it `success.k`, others
 * "hit rate" or "success@k"): 1 when at least one document in the top
 * min(k, n) has grade >= level, else 0. Empty list: 0.
 */
export function hitAt(ranking: JudgedRanking, k: number, relevanceLevel: number): number {
  return relevantInTop(ranking, k, relevanceLevel) > 0 ? 1 : 0;
}
