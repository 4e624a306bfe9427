import { relevantCount, type JudgedRanking } from './judged-ranking.js';

/**
 * Average precision (trec_eval `map` per topic, assay `average_precision`).
 *
 *   AP = (1 / R) * sum over ranks i with grade_i >= level of P@i
 *
 * where P@i = (relevant documents in the top i) / i and R is the number of
 * relevant documents in the qrels, retrieved or not: a relevant document that
 * was never retrieved contributes precision 0. No relevant document retrieved
 * (including R = 0 and an empty list): 0.
 *
 * The sum runs in rank order in double precision, as trec_eval's m_map.c
 * does, so the result is bit-identical to trec_eval's.
 */
export function averagePrecision(ranking: JudgedRanking, relevanceLevel: number): number {
  const { sum, relevantSoFar } = precisionSum(ranking, ranking.grades.length, relevanceLevel);
  if (relevantSoFar === 0) return 0;
  return sum / relevantCount(ranking, relevanceLevel);
}

/**
 * Average precision cut at rank k (trec_eval `map_cut.k`, assay
 * `average_precision@k`): the same sum over the top min(k, n) documents, still
 * divided by R, not by min(R, k). R = 0: 0.
 */
export function averagePrecisionAt(ranking: JudgedRanking, k: number, relevanceLevel: number): number {
  const relevant = relevantCount(ranking, relevanceLevel);
  if (relevant === 0) return 0;
  return precisionSum(ranking, k, relevanceLevel).sum / relevant;
}

function precisionSum(ranking: JudgedRanking, k: number, relevanceLevel: number): { sum: number; relevantSoFar: number } {
  const grades = ranking.grades;
  const depth = Math.min(k, grades.length);
  let relevantSoFar = 0;
  let sum = 0;
  for (let index = 0; index < depth; index++) {
    if ((grades[index] as number) >= relevanceLevel) {
      relevantSoFar++;
      sum += relevantSoFar / (index + 1);
    }
  }
  return { sum, relevantSoFar };
}
