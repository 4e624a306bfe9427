import { JUDGED_NEGATIVE, NOT_JUDGED, type JudgedRanking } from '../metrics/judged-ranking.js';
import type { TopicJudgments } from './qrels.js';
import type { TopicRun } from './run.js';
import { compareBytes, compareTrec } from './trec-order.js';

export type RankedTopic =
  | { ok: true; ranking: JudgedRanking }
  | { ok: false; duplicateDocumentId: string };

/**
 * Orders one topic's retrieved documents as trec_eval does and attaches their
 * grades. The rank column and the line order play no part: documents sort by
 * score, highest first, and equal scores by document id in descending byte
 * order (trec_eval's form_res_rels.c compares with strcmp the other way
 * round), so d9 comes before d10, d10 before d1, and d1 before D9. Scores are
 * equal when they parse to the same double.
 *
 * A document id appearing twice in the topic is an error: trec_eval rejects
 * such runs, and any ranking of them would be arbitrary.
 */
export function rankTopic(run: TopicRun, judgments: TopicJudgments | undefined): RankedTopic {
  const { documentIds, scores } = run;
  const size = documentIds.length;
  const order = new Uint32Array(size);
  for (let index = 0; index < size; index++) order[index] = index;
  if (!isInTrecOrder(documentIds, scores)) {
    order.sort((a, b) => compareTrec(scores[a] as number, documentIds[a] as string, scores[b] as number, documentIds[b] as string));
  }
  const grades = new Int32Array(size);
  const judged = judgments?.grades;
  const seen = new Set<string>();
  for (let rank = 0; rank < size; rank++) {
    const documentId = documentIds[order[rank] as number] as string;
    seen.add(documentId);
    if (seen.size !== rank + 1) return { ok: false, duplicateDocumentId: documentId };
    const grade = judged?.get(documentId);
    grades[rank] = grade === undefined ? NOT_JUDGED : grade < 0 ? JUDGED_NEGATIVE : grade;
  }
  return { ok: true, ranking: { grades, gradeCounts: judgments?.gradeCounts ?? [] } };
}

/** Most run files are written in rank order already; checking is cheaper than sorting. */
function isInTrecOrder(documentIds: readonly string[], scores: readonly number[]): boolean {
  for (let index = 1; index < scores.length; index++) {
    const previous = scores[index - 1] as number;
    const score = scores[index] as number;
    if (previous > score) continue;
    if (previous < score || compareBytes(documentIds[index] as string, documentIds[index - 1] as string) >= 0) return false;
  }
  return true;
}

