import type { JudgedRanking } from './judged-ranking.js';

/**
 * Reciprocal rank (trec_eval `recip_rank`, assay `reciprocal_rank`; its mean
 * over queries is MRR).
 *
 *   RR = 1 / (rank of the first document with grade >= level)
 *
 * at any depth. No relevant document retrieved, or an empty list: 0.
 */
export function reciprocalRank(ranking: JudgedRanking, relevanceLevel: number): number {
  const grades = ranking.grades;
  for (let index = 0; index < grades.length; index++) {
    if ((grades[index] as number) >= relevanceLevel) return 1 / (index + 1);
  }
  return 0;
}
