import { gradeAboveLimit, MAX_GRADE } from '../schema/relevance-grade.js';

/**
 * The input every IR measure takes: one query's ranked list, with each
 * retrieved document's relevance grade, plus how many judged documents the
 * query has at each grade.
 *
 * The encoding is trec_eval's (form_res_rels.c), so that measures computed
 * here equal trec_eval's to the last bit:
 * - a grade >= 0 is the judgment of that document in the qrels;
 * - {@link NOT_JUDGED} (-1): the document is absent from the qrels;
 * - {@link JUDGED_NEGATIVE} (-2): the qrels give it a negative grade, which
 *   trec_eval treats as "in the pool but unjudged".
 * Neither negative value is ever relevant, and both have gain 0.
 */
export interface JudgedRanking {
  /** Grade of the document at rank i + 1, in rank order. Length = num_ret. */
  readonly grades: ArrayLike<number>;
  /**
   * gradeCounts[g] = number of documents with grade g in the qrels of this
   * query, for g = 0 .. highest grade. Negative grades are not counted. This
   * includes judged documents that were not retrieved: the ideal ranking and
   * R (the number of relevant documents) come from here.
   */
  readonly gradeCounts: ArrayLike<number>;
}

export const NOT_JUDGED = -1;
export const JUDGED_NEGATIVE = -2;

/** trec_eval's default relevance level (`-l 1`): grade >= 1 is relevant. */
export const DEFAULT_RELEVANCE_LEVEL = 1;

/** R: the number of qrels documents with a grade >= relevanceLevel. */
export function relevantCount(ranking: JudgedRanking, relevanceLevel: number): number {
  let count = 0;
  for (let grade = Math.max(relevanceLevel, 0); grade < ranking.gradeCounts.length; grade++) {
    count += ranking.gradeCounts[grade] ?? 0;
  }
  return count;
}

/** Whether the document at index i (rank i + 1) counts as relevant. */
export function isRelevant(grade: number, relevanceLevel: number): boolean {
  // Negative markers are never relevant, even for a level <= -1 that trec_eval
  // would let through; assay rejects negative levels at the boundary.
  return grade >= 0 && grade >= relevanceLevel;
}

/**
 * Builds a JudgedRanking from a ranked list of document ids and a map of
 * judgments (doc id -> grade). Use this from code that does not come through
 * the trec_eval reader: the LLM-judge pipeline, tests, examples.
 */
export function judgeRanking(rankedDocumentIds: readonly string[], judgments: ReadonlyMap<string, number>): JudgedRanking {
  const grades = new Int32Array(rankedDocumentIds.length);
  rankedDocumentIds.forEach((documentId, index) => {
    const grade = judgments.get(documentId);
    grades[index] = grade === undefined ? NOT_JUDGED : grade < 0 ? JUDGED_NEGATIVE : grade;
  });
  return { grades, gradeCounts: countGrades(judgments.values()) };
}

/**
 * Counts judgments per non-negative grade: the `gradeCounts` of a
 * JudgedRanking. A grade above MAX_GRADE is a bug here: the readers refuse it
 * as an input error, since the counts grow to the highest grade.
 */
export function countGrades(grades: Iterable<number>): number[] {
  const counts: number[] = [];
  for (const grade of grades) {
    if (grade < 0) continue;
    if (grade > MAX_GRADE) throw new RangeError(gradeAboveLimit(grade));
    while (counts.length <= grade) counts.push(0);
    counts[grade] = (counts[grade] ?? 0) + 1;
  }
  return counts;
}
