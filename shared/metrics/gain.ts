/**
 * How a relevance grade turns into DCG gain.
 *
 * - `linear` (the default, as trec_eval and Järvelin & Kekäläinen 2002):
 *   gain(g) = g.
 * - `exponential` (Burges et al. 2005, used by many learning-to-rank
 *   libraries): gain(g) = 2^g - 1. Named explicitly because the two give
 *   different numbers for graded labels; they agree for binary ones.
 * - A map of grade -> gain (trec_eval's `ndcg.1=3,2=9` parameters): the
 *   grades it lists get that gain, every other grade its linear gain.
 *
 * Negative grades and unjudged documents have gain 0, unless a grade -> gain
 * map names -1 or -2 (the markers of judged-ranking.ts): trec_eval's get_gain
 * matches those too, and so does assay, so `ndcg.-1=5` gives unjudged
 * documents gain 5 in both, and can exceed 1.
 */
export type GainScheme = 'linear' | 'exponential' | ReadonlyMap<number, number>;

/** Gain of a non-negative grade under a named scheme. */
export function namedGain(grade: number, scheme: 'linear' | 'exponential'): number {
  return scheme === 'linear' ? grade : 2 ** grade - 1;
}
