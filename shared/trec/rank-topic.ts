import { JUDGED_NEGATIVE, NOT_JUDGED, type JudgedRanking } from '../metrics/judged-ranking.js';
import type { ByteStringTable } from './byte-string-table.js';
import { CountBelow } from './count-below.js';
import type { TopicJudgments } from './qrels.js';
import type { TopicRun } from './run.js';

/**
 * Orders one topic's retrieved documents as trec_eval does and attaches their
 * grades. The rank column and the line order play no part: documents sort by
 * score, highest first, and equal scores by document id in descending byte
 * order (trec_eval's form_res_rels.c compares with strcmp the other way
 * round), so d9 comes before d10, d10 before d1, and d1 before D9. Scores are
 * equal when they parse to the same double. The run reader has already
 * rejected a document id repeated within the topic.
 *
 * Only judged documents need a place: every other rank holds NOT_JUDGED. So
 * the smaller of the two sets (retrieved, judged) is walked and looked up in
 * the other, and each judged retrieved document is placed by its rank alone.
 */
export function rankTopic(run: TopicRun, judgments: TopicJudgments | undefined): JudgedRanking {
  const { documents, scores } = run;
  const size = scores.length;
  const grades = new Int32Array(size).fill(NOT_JUDGED);
  if (judgments === undefined) return { grades, gradeCounts: [] };
  const judged = judgedRetrieved(documents, judgments);
  const count = judged.indices.length;
  if (count === 0) return { grades, gradeCounts: judgments.gradeCounts };
  const ranks = isInTrecOrder(documents, scores)
    ? judged.indices
    : (ranksByHigherScores(documents, scores, judged.indices) ?? ranksOfAll(documents, scores, judged.indices));
  for (let position = 0; position < count; position++) grades[ranks[position] as number] = judged.marks[position] as number;
  return { grades, gradeCounts: judgments.gradeCounts };
}

/** The retrieved documents the qrels judge (their indices in the run) and their grade marks. */
function judgedRetrieved(documents: ByteStringTable, judgments: TopicJudgments): { indices: Uint32Array; marks: Int32Array } {
  const judged = judgments.documents;
  const size = documents.size;
  const indices = new Uint32Array(Math.min(size, judged.size));
  const marks = new Int32Array(indices.length);
  let count = 0;
  // The smaller set is walked and looked up in the other.
  if (judged.size < size) {
    for (let judgedId = 0; judgedId < judged.size; judgedId++) {
      const index = documents.findFrom(judged, judgedId);
      if (index === -1) continue;
      indices[count] = index;
      marks[count++] = gradeMark(judgments.grades[judgedId] as number);
    }
  } else {
    for (let index = 0; index < size; index++) {
      const judgedId = judged.findFrom(documents, index);
      if (judgedId === -1) continue;
      indices[count] = index;
      marks[count++] = gradeMark(judgments.grades[judgedId] as number);
    }
  }
  return { indices: indices.subarray(0, count), marks: marks.subarray(0, count) };
}

function gradeMark(grade: number): number {
  return grade < 0 ? JUDGED_NEGATIVE : grade;
}

/**
 * The 0-based ranks of the documents at `indices`: the number of documents
 * with a higher score, plus those with the same score and a greater document
 * id. Only the few judged scores are sorted; each retrieved score is placed
 * among them (count-below.ts), which costs less than sorting every score of
 * the topic. Undefined when so many documents share a judged document's
 * score that comparing their ids one by one would cost more than the whole
 * order.
 */
function ranksByHigherScores(documents: ByteStringTable, scores: readonly number[], indices: Uint32Array): Uint32Array | undefined {
  const count = indices.length;
  const judgedScores = new Float64Array(count);
  for (let position = 0; position < count; position++) judgedScores[position] = scores[indices[position] as number] as number;
  const ascending = judgedScores.slice().sort();
  const countBelow = new CountBelow(ascending);
  // exceeding[b]: documents with exactly b judged scores below theirs; those with b > k score higher than ascending[k].
  const exceeding = new Uint32Array(count + 1);
  // equal: the documents whose score is a judged one; equalAt[k]: how many have the score ascending[k] (k its first place).
  const equalLimit = 4 * count + 64;
  const equal: number[] = [];
  const equalAt = new Uint32Array(count);
  for (let index = 0; index < scores.length; index++) {
    const score = scores[index] as number;
    const below = countBelow.of(score);
    if (below < count && ascending[below] === score) {
      if (equal.length === equalLimit) return undefined;
      equal.push(index);
      equalAt[below] = (equalAt[below] as number) + 1;
    }
    exceeding[below] = (exceeding[below] as number) + 1;
  }
  const higher = new Uint32Array(count);
  let running = 0;
  for (let position = count - 1; position >= 0; position--) {
    running += exceeding[position + 1] as number;
    higher[position] = running;
  }
  const ranks = new Uint32Array(count);
  for (let position = 0; position < count; position++) {
    const index = indices[position] as number;
    const score = judgedScores[position] as number;
    const first = countBelow.of(score);
    let rank = higher[first] as number;
    // A judged document is one of the documents with its score; the others rank before it when their id is greater.
    if ((equalAt[first] as number) > 1)
      for (const other of equal) if (scores[other] === score && documents.compare(other, index) > 0) rank++;
    ranks[position] = rank;
  }
  return ranks;
}

/** The ranks of the documents at `indices` in the whole trec_eval order. */
function ranksOfAll(documents: ByteStringTable, scores: readonly number[], indices: Uint32Array): Uint32Array {
  const rankByIndex = ranksOf(trecOrder(documents, scores, Float64Array.from(scores).sort().reverse()));
  return indices.map((index) => rankByIndex[index] as number);
}

/** ranks[index] = rank of document index, from the documents in rank order. */
function ranksOf(order: Uint32Array): Uint32Array {
  const ranks = new Uint32Array(order.length);
  for (let rank = 0; rank < order.length; rank++) ranks[order[rank] as number] = rank;
  return ranks;
}

/**
 * Document indices by score, highest first, equal scores by document id in
 * descending byte order: each document finds the first place of its score by
 * binary search, and only the documents that share a score are compared by id.
 */
function trecOrder(documents: ByteStringTable, scores: readonly number[], descending: Float64Array): Uint32Array {
  const size = scores.length;
  const order = new Uint32Array(size);
  const placed = new Uint32Array(size);
  for (let index = 0; index < size; index++) {
    const first = firstAtMost(descending, scores[index] as number);
    order[first + (placed[first] as number)] = index;
    placed[first] = (placed[first] as number) + 1;
  }
  for (let start = 0; start < size; start++) {
    const count = placed[start] as number;
    if (count > 1) order.subarray(start, start + count).sort((a, b) => documents.compare(b, a));
  }
  return order;
}

/** The first position of a descending array holding a value not above `score` (its own, since it is there). */
function firstAtMost(descending: Float64Array, score: number): number {
  let low = 0;
  let high = descending.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((descending[middle] as number) > score) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** Most run files are written in rank order already; checking is cheaper than sorting. */
function isInTrecOrder(documents: ByteStringTable, scores: readonly number[]): boolean {
  for (let index = 1; index < scores.length; index++) {
    const previous = scores[index - 1] as number;
    const score = scores[index] as number;
    if (previous > score) continue;
    if (previous < score || documents.compare(index, index - 1) >= 0) return false;
  }
  return true;
}
