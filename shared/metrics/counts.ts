import { relevantCount, type JudgedRanking } from './judged-ranking.js';
import { relevantInTop } from './precision.js';

/**
 * The counting measures. Over several queries trec_eval sums them rather than
 * averaging them, and so does assay.
 *
 * - num_ret: documents retrieved (the length of the list).
 * - num_rel: R, documents in the qrels with grade >= level, retrieved or not.
 * - num_rel_ret: retrieved documents with grade >= level, at any depth.
 */
export function numberRetrieved(ranking: JudgedRanking): number {
  return ranking.grades.length;
}

export function numberRelevant(ranking: JudgedRanking, relevanceLevel: number): number {
  return relevantCount(ranking, relevanceLevel);
}

export function numberRelevantRetrieved(ranking: JudgedRanking, relevanceLevel: number): number {
  return relevantInTop(ranking, ranking.grades.length, relevanceLevel);
}
