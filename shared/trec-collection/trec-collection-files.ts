import type { CollectionWork } from './trec-collection-work.js';

/** The files of a TREC collection and how to read them: what loadTrecCollection and its spilled variant take. */
export interface TrecCollectionFiles {
  qrels?: string;
  runs: readonly string[];
  /** docid → text; fills the content of retrieved and judged documents. */
  corpus?: string;
  /** qid → text; fills the request. Without it the request is the qid itself. */
  queries?: string;
  strict?: boolean;
  /**
   * Bounds memory whatever the size of the runs: run files past
   * runsInMemoryUpTo are grouped through spill files in this folder
   * (created, then removed), so memory stays bounded by a few topics; their
   * cases then come out partition by partition (each partition's topics in
   * trec_eval's order) instead of in one qid order.
   */
  spillFolder?: string;
  /** With spillFolder, run files of at most this many bytes in all are read whole instead (default RUNS_IN_MEMORY_BYTES); 0 spills any. */
  runsInMemoryUpTo?: number;
  /** Only the top this-many chunks of each engine get their text from the corpus, and judged documents none (see TrecTexts). */
  contentDepth?: number;
  /** Where the heavy steps of a spilled load run (with spillFolder): in this thread by default, or on worker threads. */
  work?: CollectionWork;
}
