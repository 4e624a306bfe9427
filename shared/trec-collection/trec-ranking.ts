import type { RetrievedChunk } from '../schema/eval-case.js';
import { compareBytes, compareTrec } from '../trec/trec-order.js';

/** One line of a run file, reduced to what decides the ranking. */
export interface RunEntry {
  docno: string;
  score: number;
}

/** One topic's lines of one run as columns: document ids and scores, in file order. */
export interface RunColumns {
  readonly docnos: string[];
  readonly scores: number[];
}

/**
 * Orders one topic of one run as trec_eval does (form_res_rels.c): by score,
 * highest first; equal scores by docno in descending byte order, so d9 comes
 * before d10, d10 before d1 and d1 before D9. The rank column of the file and
 * the line order play no part. Rank is then the 1-based position.
 */
export function rankLikeTrecEval(entries: readonly RunEntry[]): RetrievedChunk[] {
  // Most run files list each topic in rank order already: checking costs less than sorting.
  const ordered = isRanked(entries)
    ? entries
    : [...entries].sort((left, right) => compareTrec(left.score, left.docno, right.score, right.docno));
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

/** A run's lines of a topic in trec_eval's order (rankLikeTrecEval), as columns. */
export function inTrecOrder(columns: RunColumns): RunColumns {
  const { docnos, scores } = columns;
  let descending = true;
  for (let index = 1; index < scores.length && descending; index++) descending = (scores[index - 1] as number) >= (scores[index] as number);
  if (!descending) {
    const order = Array.from(docnos.keys()).sort((left, right) =>
      compareTrec(scores[left] as number, docnos[left] as string, scores[right] as number, docnos[right] as string),
    );
    return { docnos: order.map((index) => docnos[index] as string), scores: order.map((index) => scores[index] as number) };
  }
  // Scores already fall, as most run files list them: only each run of tied scores needs its ids ordered, in place.
  let ordered = docnos;
  let start = 0;
  while (start < scores.length) {
    let end = start + 1;
    while (end < scores.length && scores[end] === scores[start]) end++;
    if (end - start > 1) {
      const tied = ordered.slice(start, end).sort((left, right) => compareBytes(right, left));
      if (ordered === docnos) ordered = [...docnos];
      for (let index = start; index < end; index++) ordered[index] = tied[index - start] as string;
    }
    start = end;
  }
  return ordered === docnos ? columns : { docnos: ordered, scores };
}
