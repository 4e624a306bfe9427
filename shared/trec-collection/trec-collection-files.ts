import type { CollectionWork } from './trec-collection-work.js';

/** The files of a TREC collection and how to read them: what loadTrecCollection takes. */
export interface TrecCollectionFiles {
  qrels?: string;
  runs: readonly string[];
  /** docid → text; fills the content of retrieved and judged documents. */
  corpus?: string;
  /** qid → text; fills the request. Without it the request is the qid itself. */
  queries?: string;
  strict?: boolean;
  /**
   * Where run files past runsInMemoryUpTo (or with a corpus) are grouped
   * through spill files (created, then removed), so memory stays bounded by
   * a few topics; a folder of the system's temporary one when not given.
   * Their cases then come out partition by partition (each partition's
   * topics in trec_eval's order) instead of in one qid order.
   */
  spillFolder?: string;
  /** Run files of at most this many bytes in all (and no corpus) are read whole instead of spilled (default RUNS_IN_MEMORY_BYTES); 0 spills any. */
  runsInMemoryUpTo?: number;
  /** Only the top this-many chunks of each engine get their text from the corpus, and judged documents none (see TrecTexts). */
  contentDepth?: number;
  /** Where the heavy steps of a load run (reading whole run files, spilling, grouping): in this thread by default, or on worker threads. */
  work?: CollectionWork;
}
