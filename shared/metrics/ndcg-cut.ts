import { namedGain } from './gain.js';
import type { JudgedRanking } from './judged-ranking.js';
import { rankDiscount } from './rank-discount.js';

/**
 * NDCG cut at rank k (trec_eval `ndcg_cut.k`, assay `ndcg@k`).
 *
 *   DCG@k  = sum over ranks i <= min(k, n) of gain(grade_i) / log2(i + 1)
 *   IDCG@k = the same sum over the first k documents of the ideal ranking:
 *            every judged document with grade >= 1, retrieved or not, in
 *            decreasing order of grade
 *   NDCG@k = DCG@k / IDCG@k, and 0 when IDCG@k = 0.
 *
 * gain(g) = g (`linear`, trec_eval's) or 2^g - 1 (`exponential`); grades
 * below 1, negative grades and unjudged documents add nothing. Fewer than k
 * results: DCG stops at n while the ideal still runs to k, so a short list is
 * penalised. The relevance level (-l) does not apply. Sums run in rank order
 * as in trec_eval's m_ndcg_cut.c, so linear results are bit-identical.
 */
export function ndcgAt(ranking: JudgedRanking, k: number, gain: 'linear' | 'exponential' = 'linear'): number {
  const grades = ranking.grades;
  const depth = Math.min(k, grades.length);
  let dcg = 0;
  for (let index = 0; index < depth; index++) {
    const grade = grades[index] as number;
    if (grade > 0) dcg += namedGain(grade, gain) / rankDiscount(index + 1);
  }
  const idealDcg = idealDcgAt(ranking, k, gain);
  return idealDcg > 0 ? dcg / idealDcg : 0;
}

function idealDcgAt(ranking: JudgedRanking, k: number, gain: 'linear' | 'exponential'): number {
  const counts = ranking.gradeCounts;
  let idealDcg = 0;
  let rank = 1;
  for (let grade = counts.length - 1; grade >= 1 && rank <= k; grade--) {
    const count = counts[grade] ?? 0;
    for (let used = 0; used < count && rank <= k; used++, rank++) {
      idealDcg += namedGain(grade, gain) / rankDiscount(rank);
    }
  }
  return idealDcg;
}
