import { namedGain, type GainScheme } from './gain.js';
import { NOT_JUDGED, type JudgedRanking } from './judged-ranking.js';
import { ndcgAt } from './ndcg-cut.js';
import { rankDiscount } from './rank-discount.js';

/**
 * Normalised discounted cumulative gain over the whole list (trec_eval
 * `ndcg`, assay `ndcg`), Järvelin & Kekäläinen (2002) with trec_eval's
 * choices:
 *
 *   DCG  = sum over all retrieved ranks i of gain(grade_i) / log2(i + 1)
 *   IDCG = the same sum over the ideal ranking: every judged document with
 *          positive gain, retrieved or not, in decreasing order of gain
 *   NDCG = DCG / IDCG, and 0 when IDCG = 0 (no judged relevant document).
 *
 * There is no depth cut: the ideal list is as long as the number of judged
 * documents with positive gain. The relevance level (-l) does not apply.
 * The gain scheme is described in gain.ts; with a grade -> gain map, the
 * ideal order follows trec_eval's m_ndcg.c exactly, including its ordering of
 * levels whose gains differ by less than 1.
 */
export function ndcg(ranking: JudgedRanking, gain: GainScheme = 'linear'): number {
  // A named gain grows with the grade: the gain table below orders the levels by grade, and NDCG is NDCG@k with no cut,
  // summed in the same order (the same bits), without building the table for every topic.
  if (typeof gain === 'string') return ndcgAt(ranking, Number.POSITIVE_INFINITY, gain);
  const levels = gainLevels(ranking, gain);
  const gainByGrade = new Map(levels.map((level) => [level.grade, level.gain]));
  // Most ranks hold an unjudged document and the rest a small grade: an array lookup for those, the map for any other grade.
  const gainOfGrade = Float64Array.from(
    { length: Math.min(SMALL_GRADES, Math.max(0, ...gainByGrade.keys()) + 1) },
    (_, grade) => gainByGrade.get(grade) ?? 0,
  );
  const notJudgedGain = gainByGrade.get(NOT_JUDGED) ?? 0;
  const grades = ranking.grades;
  let dcg = 0;
  // Unjudged documents, most ranks of a run, are passed over first and cheaply when they have no gain: this loop runs before V8 has optimised it, on every thread.
  const skipNotJudged = notJudgedGain === 0;
  for (let index = 0; index < grades.length; index++) {
    const grade = grades[index] as number;
    if (grade === NOT_JUDGED && skipNotJudged) continue;
    const documentGain =
      grade >= 0 && grade < gainOfGrade.length
        ? (gainOfGrade[grade] as number)
        : grade === NOT_JUDGED
          ? notJudgedGain
          : (gainByGrade.get(grade) ?? 0);
    if (documentGain !== 0) dcg += documentGain / rankDiscount(index + 1);
  }
  const idealDcg = idealDcgOver(levels);
  return idealDcg > 0 ? dcg / idealDcg : 0;
}

/** Grades from 0 below this are looked up in an array rather than a map. */
const SMALL_GRADES = 64;

interface GainLevel {
  readonly grade: number;
  readonly gain: number;
  readonly count: number;
}

/**
 * The gain table: explicitly mapped grades first, then every grade from 0 to
 * the highest judged one, sorted by increasing gain. The comparison truncates
 * the gain difference to an integer and the sort is stable, as in trec_eval
 * (gain_init.c on glibc), so that equal-looking gains keep the same order.
 */
function gainLevels(ranking: JudgedRanking, gain: GainScheme): GainLevel[] {
  const counts = ranking.gradeCounts;
  let levelCount = 0;
  for (let grade = 0; grade < counts.length; grade++) if ((counts[grade] ?? 0) > 0) levelCount = grade + 1;
  const levels: GainLevel[] = [];
  if (typeof gain !== 'string') {
    for (const [grade, mappedGain] of gain) {
      levels.push({ grade, gain: mappedGain, count: grade >= 0 && grade < levelCount ? (counts[grade] ?? 0) : 0 });
    }
  }
  for (let grade = 0; grade < levelCount; grade++) {
    if (levels.some((level) => level.grade === grade)) continue;
    const levelGain = typeof gain === 'string' ? namedGain(grade, gain) : grade;
    levels.push({ grade, gain: levelGain, count: counts[grade] ?? 0 });
  }
  return levels.sort((a, b) => Math.trunc(a.gain - b.gain));
}

/** Ideal DCG: fill ranks from the highest-gain level down until a level's gain is not positive. */
function idealDcgOver(levels: readonly GainLevel[]): number {
  let levelIndex = levels.length - 1;
  let levelGain = levelIndex >= 0 ? (levels[levelIndex] as GainLevel).gain : 0;
  let usedAtLevel = 0;
  let idealDcg = 0;
  for (let rank = 1; levelGain > 0; rank++) {
    usedAtLevel++;
    while (levelIndex >= 0 && usedAtLevel > (levels[levelIndex] as GainLevel).count) {
      usedAtLevel = 1;
      levelIndex--;
      levelGain = levelIndex >= 0 ? (levels[levelIndex] as GainLevel).gain : 0;
    }
    if (levelGain > 0) idealDcg += levelGain / rankDiscount(rank);
  }
  return idealDcg;
}
