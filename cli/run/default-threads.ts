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

/**
 * The worker threads a run takes when `--threads` is not given: one a core
 * (at most MAX_THREADS) for an input of THREADED_INPUT_BYTES or more, one
 * below. A dataset file (rather than a TREC collection, whose run files the
 * threads read) also needs more than two cores: on two, the threads' handing
 * of cases back and forth costs more than they save at every size measured,
 * 10,000 cases (9 MB) in 10.1 s against 9.7 s in one thread and 100,000
 * (91 MB) in 64.2 s against 46.7 s (`farm-bench`, side by side, the
 * datasets of `npm run bench:scale`).
 */
export async function defaultThreadsFor(input: RunInput, cores: number = availableParallelism()): Promise<number> {
  const oneACore = Math.min(cores, MAX_THREADS);
  if (input.collection === undefined && cores <= 2) return 1;
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
    if (bytes >= THREADED_INPUT_BYTES) return oneACore;
  }
  return 1;
}
