import { JUDGED_NEGATIVE, NOT_JUDGED, type JudgedRanking } from '../metrics/judged-ranking.js';
import type { ByteStringTable } from './byte-string-table.js';
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
 */
export function rankTopic(run: TopicRun, judgments: TopicJudgments | undefined): JudgedRanking {
  const { documents, scores } = run;
  const size = scores.length;
  const order = isInTrecOrder(documents, scores) ? identityOrder(size) : trecOrder(documents, scores);
  const grades = new Int32Array(size);
  for (let rank = 0; rank < size; rank++) {
    const judgedId = judgments === undefined ? -1 : judgments.documents.findFrom(documents, order[rank] as number);
    const grade = judgedId === -1 ? undefined : (judgments?.grades[judgedId] as number);
    grades[rank] = grade === undefined ? NOT_JUDGED : grade < 0 ? JUDGED_NEGATIVE : grade;
  }
  return { grades, gradeCounts: judgments?.gradeCounts ?? [] };
}

function identityOrder(size: number): Uint32Array {
  const order = new Uint32Array(size);
  for (let index = 0; index < size; index++) order[index] = index;
  return order;
}

/**
 * Document indices by score, highest first, equal scores by document id in
 * descending byte order. The scores are sorted as a typed array (natively,
 * with no comparator called per pair); each document then finds its place by
 * binary search, and only the documents that share a score are compared by
 * id: in most runs there are none.
 */
function trecOrder(documents: ByteStringTable, scores: readonly number[]): Uint32Array {
  const size = scores.length;
  const descending = Float64Array.from(scores).sort().reverse();
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
