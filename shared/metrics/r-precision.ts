import { relevantCount, type JudgedRanking } from './judged-ranking.js';
import { relevantInTop } from './precision.js';

/**
 * R-precision (trec_eval `Rprec`, assay `r_precision`): precision after R
 * documents, where R is the number of relevant documents in the qrels.
 *
 *   Rprec = |{ i <= min(R, n) : grade_i >= level }| / R
 *
 * A list shorter than R is not padded differently: missing ranks count as
 * non-relevant, so the denominator stays R. R = 0 or an empty list: 0.
 */
export function rPrecision(ranking: JudgedRanking, relevanceLevel: number): number {
  const relevant = relevantCount(ranking, relevanceLevel);
  if (Math.min(relevant, ranking.grades.length) === 0) return 0;
  return relevantInTop(ranking, relevant, relevanceLevel) / relevant;
}
