import type { RunFileLines } from './trec-run-lines.js';

/** A document a run lists twice for one topic: the later line, which does not count (as in trec_eval). */
export interface RepeatedDocument {
  readonly line: number;
  readonly qid: string;
  /** The tag's number in the file (RunFileLines.tags). */
  readonly tag: number;
  readonly docno: string;
}

/** One topic's list of one tag of a run file, ranked as trec_eval ranks it. */
export interface TopicRanking {
  readonly qid: string;
  readonly tag: number;
  /** Documents in the list. */
  readonly count: number;
  /** The list as the `ranking` of a stored case: `{"doc_uris":[...],"scores":[...]}`. */
  readonly ranking: string;
}

/**
 * One run file read whole: its lines and their errors, the documents it
 * repeats (named by the caller, which alone knows each tag's engine name),
 * and every topic's ranked list of every tag, in the order the file first
 * lists them. What a collection small enough to hold in memory needs of a
 * run file; as text, which crosses threads cheaply.
 */
export interface RunFileTopics extends RunFileLines {
  readonly repeats: RepeatedDocument[];
  readonly rankings: TopicRanking[];
}
