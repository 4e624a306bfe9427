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
  const order = new Uint32Array(size);
  for (let index = 0; index < size; index++) order[index] = index;
  if (!isInTrecOrder(documents, scores)) {
    order.sort((a, b) => (scores[b] as number) - (scores[a] as number) || documents.compare(b, a));
  }
  const grades = new Int32Array(size);
  for (let rank = 0; rank < size; rank++) {
    const judgedId = judgments === undefined ? -1 : judgments.documents.findFrom(documents, order[rank] as number);
    const grade = judgedId === -1 ? undefined : (judgments?.grades[judgedId] as number);
    grades[rank] = grade === undefined ? NOT_JUDGED : grade < 0 ? JUDGED_NEGATIVE : grade;
  }
  return { grades, gradeCounts: judgments?.gradeCounts ?? [] };
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
