import type { RetrievedChunk } from '../schema/eval-case.js';
import { compareTrec } from '../trec/trec-order.js';

/** One line of a run file, reduced to what decides the ranking. */
export interface RunEntry {
  docno: string;
  score: number;
}

/**
 * Orders one topic of one run as trec_eval does (form_res_rels.c): by score,
 * highest first; equal scores by docno in descending byte order, so d9 comes
 * before d10, d10 before d1 and d1 before D9. The rank column of the file and
 * the line order play no part. Rank is then the 1-based position.
 */
export function rankLikeTrecEval(entries: readonly RunEntry[]): RetrievedChunk[] {
  // Most run files list each topic in rank order already: checking costs less than sorting.
  const ordered = isRanked(entries) ? entries : [...entries].sort((left, right) => compareTrec(left.score, left.docno, right.score, right.docno));
  return ordered.map((entry, index) => ({ doc_uri: entry.docno, score: entry.score, rank: index + 1 }));
}

function isRanked(entries: readonly RunEntry[]): boolean {
  for (let index = 1; index < entries.length; index++) {
    const previous = entries[index - 1] as RunEntry;
    const entry = entries[index] as RunEntry;
    if (compareTrec(previous.score, previous.docno, entry.score, entry.docno) > 0) return false;
  }
  return true;
}
