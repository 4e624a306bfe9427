/**
 * The largest relevance grade assay reads, in a dataset's expected documents
 * and in TREC qrels. The ground-truth metrics count a topic's documents per
 * grade, and NDCG's gain table holds every grade from 0 to the highest judged
 * one (as trec_eval's does), so a grade costs memory and time in proportion
 * to its size: a grade of 999999999 took 2.6 GB and then crashed the process.
 * Graded relevance scales run to 3 or 4, a percentage to 100; a grade above
 * this bound is most likely a score, a rank or a document id in the grade's
 * field, and is refused as an input error that says so.
 */
export const MAX_GRADE = 10_000;

/** What to do about a grade above MAX_GRADE, in the input error that refuses it. */
export const GRADE_ABOVE_LIMIT_FIX =
  `give relevance grades as small integers, at most ${MAX_GRADE} (0 = not relevant, 1 or more = relevant); ` +
  'a larger number is most likely a score, a rank or an id in the grade field';

/** A grade above MAX_GRADE, as the input error words it. */
export function gradeAboveLimit(grade: string | number): string {
  return `expected a relevance grade of at most ${MAX_GRADE}, got ${grade}`;
}
