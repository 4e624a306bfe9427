import { stat } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { MAX_THREADS } from '../../shared/schema/work-limits.js';
import type { RunInput } from './upload-input.js';

/**
 * Below this much input (the dataset file, or a collection's qrels and run
 * files) a run stays in one thread unless `--threads` says otherwise: each
 * thread loads the steps' code (about 0.3 s of CPU), and on the 2-core
 * machine of docs/benchmarks.md a dataset of 2.6 MB (3,000 queries x two
 * engines, ground truth only) still took 6.6 s in one thread against 7.9 s
 * on two; the sample dataset 0.43 s against 0.62 s.
 */
export const THREADED_INPUT_BYTES = 4 * 1024 * 1024;

/** The worker threads a run takes when `--threads` is not given: one a core (at most MAX_THREADS) for an input of THREADED_INPUT_BYTES or more, none below. */
export async function defaultThreadsFor(input: RunInput): Promise<number> {
  const paths =
    input.collection !== undefined
      ? [input.collection.qrels, ...input.collection.runs]
      : input.datasetPath !== undefined
        ? [input.datasetPath]
        : [];
  let bytes = 0;
  for (const path of paths) {
    bytes += await stat(path).then(
      (found) => found.size,
      // An input that cannot be read is reported by its upload, with its name; here it only weighs nothing.
      () => 0,
    );
    if (bytes >= THREADED_INPUT_BYTES) return Math.min(availableParallelism(), MAX_THREADS);
  }
  return 1;
}
