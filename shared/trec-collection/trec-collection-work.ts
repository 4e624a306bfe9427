import type { PartitionCaseBuilder } from './trec-partition-cases.js';
import type { RunSpiller } from './trec-run-spilling-reader.js';

/**
 * Where the heavy steps of a spilled TREC load run, when not all in the
 * loading thread one after another: spilling the run files, and grouping
 * the spilled partitions into cases (for a collection without queries or
 * corpus). The embedded CLI hands both to its worker threads.
 */
export interface CollectionWork {
  readonly spillRuns: RunSpiller;
  readonly partitionCases: PartitionCaseBuilder;
}
