import { JUDGED_NEGATIVE, NOT_JUDGED, type JudgedRanking } from '../../../shared/metrics/judged-ranking.js';

/** A grade as a JudgedRanking stores it: a judgment >= 0, NOT_JUDGED (-1) or JUDGED_NEGATIVE (-2). */
export type StoredGrade = number;

/** How many qrels documents a query has at each grade: `{ 0: 3, 1: 2 }` is three 0s and two 1s. */
export type GradeCounts = Readonly<Record<number, number>>;

/**
 * A JudgedRanking from its grades in rank order and the qrels' count of
 * documents per grade (retrieved or not), e.g. `ranking([1, 0, -1, 2], { 0: 3, 1: 2, 2: 1 })`.
 */
export function ranking(grades: readonly StoredGrade[], gradeCounts: GradeCounts): JudgedRanking {
  const highest = Math.max(-1, ...Object.keys(gradeCounts).map(Number));
  const counts = Array.from({ length: highest + 1 }, (_, grade) => gradeCounts[grade] ?? 0);
  return { grades: Int32Array.from(grades), gradeCounts: counts };
}

/** The grades of a ranking as a plain array, for assertions and edits. */
export function gradesOf(judged: JudgedRanking): StoredGrade[] {
  return Array.from(judged.grades);
}

/** Short names for the two markers, so grade tables stay readable. */
export const UNJUDGED = NOT_JUDGED;
export const NEGATIVE = JUDGED_NEGATIVE;
