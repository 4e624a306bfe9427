import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import type { CaseOutcome } from '../../shared/pipeline/evaluate-case.js';
import type { AggregatedRangeText, RangeAggregator } from '../../shared/pipeline/aggregate-range.js';
import { piecewiseAggregator } from '../../shared/pipeline/range-pieces.js';
import type { Judging } from '../../shared/pipeline/evaluate-case.js';

/** Work a pipeline thread does; every field crosses the thread boundary by structured clone. */
export type ThreadTask =
  | { readonly kind: 'load' }
  | { readonly kind: 'judge'; readonly event: SQSEvent }
  | { readonly kind: 'aggregate'; readonly runId: string; readonly range: number; readonly caseIds: readonly string[]; readonly keepLines: boolean };

/** What a pipeline thread answers for each kind of task. */
export interface ThreadAnswers {
  readonly load: null;
  readonly judge: { readonly response: SQSBatchResponse; readonly outcomes: readonly CaseOutcome[] };
  readonly aggregate: AggregatedRangeText;
}

/** The message a thread gets: a task and the id its answer carries back. */
export interface ThreadRequest {
  readonly id: number;
  readonly task: ThreadTask;
}

export type ThreadReply = { readonly id: number; readonly ok: true; readonly value: unknown } | { readonly id: number; readonly ok: false; readonly message: string; readonly stack?: string };

/** What a thread starts with: the store folder it opens for itself. */
export interface ThreadSetup {
  readonly storeFolder: string;
}

interface Slot {
  readonly worker: Worker;
  readonly pending: Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>;
}

/**
 * Worker threads for the CPU-bound handlers of an embedded run: the judge
 * worker of a run that makes no judge call (ground-truth metrics over ranked
 * lists of a thousand documents, or the lexical judges) and the reducer's
 * range aggregation. Each thread opens the same store folder, as a Lambda
 * would open the bucket, so only the tasks and their answers cross threads.
 * A task goes to the thread with the fewest tasks waiting.
 *
 * From the TypeScript source (the tests' in-process CLI) there is no built
 * thread entry, and `start` returns undefined: the handlers then run in the
 * main thread, with the same results.
 */
export class PipelineThreads {
  private nextId = 0;

  private constructor(private readonly slots: readonly Slot[]) {}

  /** `threads` threads over `storeFolder` (one a core by default); undefined for fewer than two, or without a built thread entry. */
  static start(storeFolder: string, threads = availableParallelism(), entry: URL | undefined = builtThreadEntry(import.meta.url)): PipelineThreads | undefined {
    if (entry === undefined || threads < 2) return undefined;
    const setup: ThreadSetup = { storeFolder };
    const slots = Array.from({ length: threads }, (): Slot => {
      const pending: Slot['pending'] = new Map();
      // The young generation the CLI's shebang gives the main thread: these handlers make short-lived garbage.
      const worker = new Worker(entry, { workerData: setup, resourceLimits: { maxYoungGenerationSizeMb: 192 } });
      worker.on('message', (reply: ThreadReply) => {
        const waiting = pending.get(reply.id);
        if (waiting === undefined) return;
        pending.delete(reply.id);
        if (reply.ok) waiting.resolve(reply.value);
        else waiting.reject(Object.assign(new Error(reply.message), reply.stack === undefined ? {} : { stack: reply.stack }));
      });
      const failAll = (error: Error): void => {
        for (const waiting of pending.values()) waiting.reject(error);
        pending.clear();
      };
      worker.on('error', failAll);
      worker.on('exit', (code) => failAll(new Error(`A pipeline thread stopped (exit code ${code}) with tasks unanswered`)));
      // An idle thread does not keep the process alive: the run's own work does.
      worker.unref();
      return { worker, pending };
    });
    return new PipelineThreads(slots);
  }

  /**
   * Has every thread load the code of its tasks now rather than at its first
   * task: a judge worker's code takes a thread some tenths of a second to
   * load, time better spent while the main thread ingests.
   */
  load(): void {
    for (const slot of this.slots) this.post(slot, { kind: 'load' }).catch(() => {});
  }

  get size(): number {
    return this.slots.length;
  }

  run<Kind extends ThreadTask['kind']>(task: Extract<ThreadTask, { kind: Kind }>): Promise<ThreadAnswers[Kind]> {
    return this.post(this.slots.reduce((least, candidate) => (candidate.pending.size < least.pending.size ? candidate : least)), task);
  }

  private post<Kind extends ThreadTask['kind']>(slot: Slot, task: Extract<ThreadTask, { kind: Kind }>): Promise<ThreadAnswers[Kind]> {
    const id = this.nextId++;
    return new Promise<ThreadAnswers[Kind]>((resolve, reject) => {
      slot.pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      slot.worker.postMessage({ id, task } satisfies ThreadRequest);
    });
  }

  async close(): Promise<void> {
    await Promise.all(this.slots.map((slot) => slot.worker.terminate()));
  }
}

/** The built thread entry (dist/cli/pipeline-thread.js, beside the built main.js), or undefined where there is none. */
export function builtThreadEntry(from: string): URL | undefined {
  for (const relative of ['./pipeline-thread.js', '../pipeline-thread.js']) {
    const url = new URL(relative, from);
    if (url.protocol === 'file:' && existsSync(fileURLToPath(url))) return url;
  }
  return undefined;
}

/** Whether a run's judging makes no call (no judge model, no live engine): only such runs are judged on threads, whose judging is rebuilt there without an API key. */
export function judgedWithoutCalls(judging: Judging): boolean {
  return judging.backend.kind === 'lexical' && (judging.engines ?? []).length === 0;
}

/** The judge worker handler, run on the threads: the outcomes come back with the batch response. */
export function threadedJudgeWorker(threads: PipelineThreads, onOutcome: (outcome: CaseOutcome) => void): (event: SQSEvent) => Promise<SQSBatchResponse> {
  return async (event) => {
    const { response, outcomes } = await threads.run({ kind: 'judge', event });
    for (const outcome of outcomes) onOutcome(outcome);
    return response;
  };
}

/** A reduce range aggregated in as many consecutive pieces as there are threads, one a thread, then joined. */
export function threadedAggregator(threads: PipelineThreads, runId: string): RangeAggregator {
  return piecewiseAggregator((range, caseIds, keepLines) => threads.run({ kind: 'aggregate', runId, range, caseIds, keepLines }), threads.size);
}
