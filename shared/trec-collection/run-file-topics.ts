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
  /** Where the list is in the file's `json`, as the `ranking` of a stored case (`{"doc_uris":[...],"scores":[...]}`): bytes start to end. */
  readonly start: number;
  readonly end: number;
}

/**
 * One run file read whole: its lines and their errors, the documents it
 * repeats (named by the caller, which alone knows each tag's engine name),
 * and every topic's ranked list of every tag, in the order the file first
 * lists them. What a collection small enough to hold in memory needs of a
 * run file; the lists as UTF-8 JSON in one buffer of their own, which a
 * thread hands over without a copy (pipeline-thread-entry.ts transfers it)
 * and a case is joined from without making a string.
 */
export interface RunFileTopics extends RunFileLines {
  readonly repeats: RepeatedDocument[];
  readonly rankings: TopicRanking[];
  /** Every ranking's JSON, back to back; its buffer holds nothing else. */
  readonly json: Uint8Array;
}
