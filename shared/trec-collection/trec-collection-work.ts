import type { PartitionCaseBuilder } from './trec-partition-cases.js';
import type { RunSpiller } from './trec-run-spilling-reader.js';
import type { RunTopicsReader } from './trec-run-topics.js';

/**
 * Where the heavy steps of a bounded TREC load run, when not all in the
 * loading thread one after another: reading run files whole into their
 * topics, or spilling them and grouping the spilled partitions into cases
 * (for a collection without queries or corpus). The embedded CLI hands them
 * to its worker threads.
 */
export interface CollectionWork {
  readonly spillRuns: RunSpiller;
  /** Reading run files whole into their topics, for a collection small enough to hold. */
  readonly readRunTopics: RunTopicsReader;
  readonly partitionCases: PartitionCaseBuilder;
}
