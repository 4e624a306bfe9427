import type { JudgedRanking } from './judged-ranking.js';

/**
 * Precision at cutoff k (trec_eval `P.k`, assay `precision@k`).
 *
 *   P@k = |{ i <= min(k, n) : grade_i >= level }| / k
 *
 * n is the number of retrieved documents. Ranks past the end of the list
 * count as non-relevant, so the denominator is always k: a list of 3 relevant
 * documents has P@10 = 0.3 (trec_eval's convention; some libraries divide by
 * min(k, n) instead). Empty list: 0. k must be a positive integer.
 */
export function precisionAt(ranking: JudgedRanking, k: number, relevanceLevel: number): number {
  return relevantInTop(ranking, k, relevanceLevel) / k;
}

/** Number of relevant documents among the first min(k, n) retrieved. */
export function relevantInTop(ranking: JudgedRanking, k: number, relevanceLevel: number): number {
  const grades = ranking.grades;
  const depth = Math.min(k, grades.length);
  let relevant = 0;
  for (let index = 0; index < depth; index++) {
    if ((grades[index] as number) >= relevanceLevel) relevant++;
  }
  return relevant;
}
