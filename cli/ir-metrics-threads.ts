import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { EvaluationOptions } from '../shared/trec/evaluate.js';
import type { RunScore, ScoreOutput } from '../shared/trec/score-run-file.js';

export interface ScoreTask {
  readonly qrelsPath: string;
  readonly measures: readonly string[];
  readonly evaluation: EvaluationOptions;
  readonly output: ScoreOutput;
}

/**
 * The built worker (dist/cli/ir-metrics-worker.js, beside the built main.js),
 * or undefined where there is none: from the TypeScript source (npm run
 * assay, the tests' in-process CLI) the runs are scored in this thread.
 */
export function builtWorker(from: string): URL | undefined {
  for (const relative of ['./ir-metrics-worker.js', '../ir-metrics-worker.js']) {
    const url = new URL(relative, from);
    if (url.protocol === 'file:' && existsSync(fileURLToPath(url))) return url;
  }
  return undefined;
}

/** Worker threads worth starting for this many runs: one a core, never more than the runs. */
export function threadsFor(runs: number): number {
  return Math.min(runs, availableParallelism());
}

/**
 * Scores the runs on `threads` worker threads (run i on thread i mod
 * threads) and yields their scores in the order given, each as soon as it and
 * every run before it are done. Stopping early (a run failed) ends the threads.
 */
export async function* scoreRunsOnThreads(worker: URL, task: ScoreTask, runPaths: readonly string[], threads: number): AsyncGenerator<RunScore> {
  const done = new Map<number, RunScore>();
  let wake: () => void = () => {};
  let failure: unknown;
  const workers = Array.from({ length: threads }, (_, thread) => {
    const runs = runPaths.flatMap((path, position) => (position % threads === thread ? [{ position, path }] : []));
    // The young generation the CLI's shebang gives the main thread (--max-semi-space-size=64): reading run files makes short-lived garbage.
    const started = new Worker(worker, { workerData: { ...task, runs }, resourceLimits: { maxYoungGenerationSizeMb: 192 } });
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
    for (let position = 0; position < runPaths.length; position++) {
      while (!done.has(position)) {
        if (failure !== undefined) throw failure;
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
