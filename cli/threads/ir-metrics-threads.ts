import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { builtEntry } from './built-entry.js';
import type { EvaluationOptions } from '../../shared/trec/evaluate.js';
import { qrelsToParts, type Qrels } from '../../shared/trec/qrels.js';
import type { RunScore, ScoreOutput } from '../../shared/trec/score-run-file.js';

export interface ScoreTask {
  readonly qrelsPath: string;
  readonly measures: readonly string[];
  readonly evaluation: EvaluationOptions;
  readonly output: ScoreOutput;
}

/** The built ir-metrics worker (dist/cli/ir-metrics-worker.js), or undefined from the source: the runs are then scored in this thread. */
export function builtWorker(from: string): URL | undefined {
  return builtEntry(from, 'ir-metrics-worker.js');
}

/** Threads worth scoring on for this many runs (this one included): one a core, never more than the runs. */
export function threadsFor(runs: number): number {
  return Math.min(runs, availableParallelism());
}

/** What a worker thread is given: the task, every run path, and the shared counter it claims runs from. */
export interface WorkerTask extends ScoreTask {
  readonly runPaths: readonly string[];
  /** claims[0]: the position of the next run nobody has taken yet; taken with Atomics.add. */
  readonly claims: Int32Array;
}

/** The position of the next run nobody has taken yet, now taken; runs.length or more when none is left. */
export function claimRun(claims: Int32Array): number {
  return Atomics.add(claims, 0, 1);
}

/**
 * Scores the runs on `threads` threads, this one and `threads - 1` workers,
 * and yields their scores in the order given, each as soon as it and every
 * run before it are done. This thread reads the qrels while the workers
 * start, and sends them over, so that no thread reads them twice. Every thread
 * takes the next run nobody has taken from one shared counter, so a thread
 * that started late or drew short runs takes more; this thread scores while
 * it waits, with `here.score`, rather than idling. Stopping early (a run
 * failed, the qrels are bad) ends the workers.
 */
export async function* scoreRunsOnThreads(
  worker: URL,
  task: ScoreTask,
  runPaths: readonly string[],
  threads: number,
  here: { readonly qrels: () => Promise<Qrels>; readonly score: (qrels: Qrels, runPath: string) => Promise<RunScore> },
): AsyncGenerator<RunScore> {
  const claims = new Int32Array(new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT));
  const done = new Map<number, RunScore>();
  let wake: () => void = () => {};
  let failure: unknown;
  const workerTask: WorkerTask = { ...task, runPaths, claims };
  const workers = Array.from({ length: threads - 1 }, () => {
    // The young generation the CLI's shebang gives the main thread (--max-semi-space-size=64): reading run files makes short-lived garbage.
    const started = new Worker(worker, { workerData: workerTask, resourceLimits: { maxYoungGenerationSizeMb: 192 } });
    started.on('message', (message: { position: number; score: RunScore }) => {
      done.set(message.position, message.score);
      wake();
    });
    started.on('error', (error) => {
      failure = error;
      wake();
    });
    return started;
  });
  try {
    const qrels = await here.qrels();
    const parts = qrelsToParts(qrels);
    for (const started of workers) started.postMessage(parts);
    for (let position = 0; position < runPaths.length; position++) {
      while (!done.has(position)) {
        if (failure !== undefined) throw failure;
        const claimed = claimRun(claims);
        if (claimed < runPaths.length) {
          done.set(claimed, await here.score(qrels, runPaths[claimed] as string));
          continue;
        }
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
      }
      const score = done.get(position) as RunScore;
      done.delete(position);
      yield score;
    }
  } finally {
    await Promise.all(workers.map((started) => started.terminate()));
  }
}
