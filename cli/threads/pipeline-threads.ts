import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { CollectionWork } from '../../shared/trec-collection/trec-collection-work.js';
import type { PartitionRequest, SerializedPartition } from '../../shared/trec-collection/trec-partition-cases.js';
import type { SpilledRunFile } from '../../shared/trec-collection/trec-run-spilling-reader.js';
import type { RunFileTopics } from '../../shared/trec-collection/trec-run-topics.js';
import type { AggregatedRangeFiles, RangeAggregator } from '../../shared/reduce/aggregate-range.js';
import type { CaseDelivery, DeliveredCase } from '../../shared/worker/case-delivery.js';
import type { Judging } from '../../shared/worker/evaluate-case.js';
import { callsModel } from '../../shared/worker/judging.js';
import { piecewiseAggregator } from '../../shared/reduce/range-pieces.js';
import type { MeanIntervals } from '../../shared/report/precomputed-intervals.js';
import type { Result } from '../../shared/schema/result.js';
import { MAX_THREADS } from '../../shared/schema/work-limits.js';
import type { Interval } from '../../shared/statistics/bootstrap-mean-interval.js';
import { builtEntry } from './built-entry.js';
import { rethrown, type ThrownOnThread } from './thrown-on-thread.js';

/** Work a pipeline thread does; every field crosses the thread boundary by structured clone. */
export type ThreadTask =
  | { readonly kind: 'load' }
  | { readonly kind: 'spill-run'; readonly file: string; readonly fileIndex: number; readonly folder: string; readonly partitions: number }
  | { readonly kind: 'trec-partition'; readonly request: PartitionRequest }
  | { readonly kind: 'run-topics'; readonly file: string }
  | { readonly kind: 'judge'; readonly deliveries: readonly CaseDelivery[] }
  | {
      readonly kind: 'aggregate';
      readonly runId: string;
      readonly range: number;
      readonly caseIds: readonly string[];
      readonly keepLines: boolean;
      readonly linesPath: string;
    }
  | { readonly kind: 'mean-intervals'; readonly lists: readonly Float64Array[] };

/** What a pipeline thread answers for each kind of task. */
export interface ThreadAnswers {
  readonly load: null;
  readonly 'spill-run': SpilledRunFile;
  readonly 'trec-partition': SerializedPartition;
  readonly 'run-topics': RunFileTopics;
  readonly judge: readonly DeliveredCase[];
  readonly aggregate: AggregatedRangeFiles;
  readonly 'mean-intervals': (Interval | undefined)[];
}

/** The message a thread gets: a task and the id its answer carries back. */
export interface ThreadRequest {
  readonly id: number;
  readonly task: ThreadTask;
}

/** A task's answer, or the error it threw, with the id of its request. */
export type ThreadReply = { readonly id: number } & Result<unknown, ThrownOnThread>;

/** What a thread starts with: the store folder it opens for itself. */
export interface ThreadSetup {
  readonly storeFolder: string;
}

interface Waiting {
  readonly task: ThreadTask;
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: Error) => void;
}

interface Slot {
  readonly worker: Worker;
  /** The task the thread is on, by id: one at a time, since the tasks are CPU-bound. */
  readonly running: Map<number, Waiting>;
  /** Whether the thread has been asked to load the code of every step. */
  loading: boolean;
}

/**
 * Worker threads for the CPU-bound steps of an embedded run that makes no
 * judge call: spilling the run files of a TREC collection, the judge worker
 * (ground-truth metrics over ranked lists of a thousand documents, or the
 * lexical judges) and the reducer's range aggregation. Each thread opens the
 * same store folder, as a Lambda would open the bucket, so only the tasks
 * and their answers cross threads. A thread takes one task at a time, the
 * next one waiting as soon as it is free.
 *
 * From the TypeScript source (the tests' in-process CLI) there is no built
 * thread entry, and `start` returns undefined: the same steps then run in
 * the main thread, with the same results.
 */
export class PipelineThreads {
  private nextId = 0;
  private readonly waiting: Waiting[] = [];
  /** Why the threads cannot take tasks any more: one of them failed, or they were closed. */
  private stopped: Error | undefined;
  private readonly slots: readonly Slot[];

  private constructor(entry: URL, setup: ThreadSetup, threads: number) {
    this.slots = Array.from({ length: threads }, (): Slot => {
      const running = new Map<number, Waiting>();
      // A young generation of 48 MB: these steps make short-lived garbage, and two threads beside the main one keep a 100,000-case run under 800 MB.
      const worker = new Worker(entry, { workerData: setup, resourceLimits: { maxYoungGenerationSizeMb: 48 } });
      worker.on('message', (reply: ThreadReply) => {
        const task = running.get(reply.id);
        if (task === undefined) return;
        running.delete(reply.id);
        if (running.size === 0) worker.unref();
        if (reply.ok) task.resolve(reply.value);
        else task.reject(rethrown(reply.error));
        this.dispatch();
      });
      // A thread that dies is a bug: every task, running or waiting, fails with its error.
      const failAll = (error: Error): void => {
        this.stopped ??= error;
        for (const task of [...running.values(), ...this.waiting.splice(0)]) task.reject(this.stopped);
        running.clear();
      };
      worker.on('error', failAll);
      worker.on('exit', (code) => failAll(new Error(`A pipeline thread stopped (exit code ${code})`)));
      // An idle thread does not keep the process alive; one on a task does (send).
      worker.unref();
      return { worker, running, loading: false };
    });
    // Each thread loads the code of every step at once, while the main thread still stores the run's input.
    this.loadIdle();
  }

  /** `threads` threads over `storeFolder` (one a core by default, at most MAX_THREADS); undefined for fewer than two, or without a built thread entry. */
  static start(
    storeFolder: string,
    threads = Math.min(availableParallelism(), MAX_THREADS),
    entry: URL | undefined = builtThreadEntry(import.meta.url),
  ): PipelineThreads | undefined {
    if (entry === undefined || threads < 2) return undefined;
    return new PipelineThreads(entry, { storeFolder }, threads);
  }

  get size(): number {
    return this.slots.length;
  }

  run<Kind extends ThreadTask['kind']>(task: Extract<ThreadTask, { kind: Kind }>): Promise<ThreadAnswers[Kind]> {
    return new Promise<ThreadAnswers[Kind]>((resolve, reject) => {
      if (this.stopped !== undefined) {
        reject(this.stopped);
        return;
      }
      this.waiting.push({ task, resolve: resolve as (value: unknown) => void, reject });
      this.dispatch();
    });
  }

  /**
   * Gives each idle thread the next waiting task. A thread left idle once
   * the first tasks came loads the code of every step: a judge worker's code
   * takes a thread some tenths of a second to load, time better spent while
   * the main thread still ingests than when the first cases wait.
   */
  private dispatch(): void {
    for (const slot of this.slots) {
      if (slot.running.size > 0) continue;
      const next = this.waiting.shift();
      if (next === undefined) break;
      this.send(slot, next);
    }
    // Later: tasks handed over together (Promise.all of several) all wait by then, and go first.
    setImmediate(() => this.loadIdle());
  }

  private loadIdle(): void {
    if (this.stopped !== undefined || this.waiting.length > 0) return;
    for (const slot of this.slots) {
      if (slot.running.size > 0 || slot.loading) continue;
      slot.loading = true;
      this.send(slot, { task: { kind: 'load' }, resolve: () => {}, reject: () => {} });
    }
  }

  private send(slot: Slot, task: Waiting): void {
    const id = this.nextId++;
    slot.running.set(id, task);
    slot.worker.ref();
    slot.worker.postMessage({ id, task: task.task } satisfies ThreadRequest);
  }

  async close(): Promise<void> {
    this.stopped ??= new Error('The pipeline threads were closed');
    await Promise.all(this.slots.map((slot) => slot.worker.terminate()));
  }
}

/** The built thread entry (dist/cli/pipeline-thread.js, beside the built main.js), or undefined where there is none. */
export function builtThreadEntry(from: string): URL | undefined {
  return builtEntry(from, 'pipeline-thread.js');
}

/**
 * Whether a run's judging makes no call: no live engine, and every judge
 * computed here (the lexical judges, or only deterministic ones such as
 * document_recall, or none, whatever the API key). Only such runs are judged
 * on threads, whose judging is rebuilt there from the run's judge list
 * without an API key: the same judges, computed the same way.
 */
export function judgedWithoutCalls(judging: Judging): boolean {
  return (judging.engines ?? []).length === 0 && !callsModel(judging);
}

/** The judge worker's step, run on the threads: case messages go over, what became of each comes back. */
export function threadedCaseDelivery(threads: PipelineThreads): (deliveries: readonly CaseDelivery[]) => Promise<readonly DeliveredCase[]> {
  return (deliveries) => threads.run({ kind: 'judge', deliveries });
}

/** A reduce range aggregated in as many consecutive pieces as there are threads, one a thread, then joined. */
export function threadedAggregator(threads: PipelineThreads, runId: string): RangeAggregator {
  return piecewiseAggregator(
    (range, caseIds, keepLines, linesPath) => threads.run({ kind: 'aggregate', runId, range, caseIds, keepLines, linesPath }),
    threads.size,
  );
}

/**
 * The report's bootstrap intervals on the threads: the value lists dealt out
 * in as many groups as there are threads, each about the same number of
 * values (the largest list first to the lightest group), and put back in order.
 */
export function threadedIntervals(threads: PipelineThreads): MeanIntervals {
  return async (lists) => {
    const groups = Array.from({ length: Math.min(threads.size, lists.length) }, () => ({ positions: [] as number[], values: 0 }));
    const bySize = [...lists.keys()].sort((left, right) => (lists[right] as Float64Array).length - (lists[left] as Float64Array).length);
    for (const position of bySize) {
      const lightest = groups.reduce((least, group) => (group.values < least.values ? group : least));
      lightest.positions.push(position);
      lightest.values += (lists[position] as Float64Array).length;
    }
    const answers = await Promise.all(
      groups.map((group) =>
        threads.run({ kind: 'mean-intervals', lists: group.positions.map((position) => lists[position] as Float64Array) }),
      ),
    );
    const intervals: (Interval | undefined)[] = new Array(lists.length);
    for (const [index, group] of groups.entries())
      for (const [offset, position] of group.positions.entries()) intervals[position] = answers[index]?.[offset];
    return intervals;
  };
}

/** A TREC collection loaded on the threads: its run files read whole or spilled, and its partitions grouped, as many at once as there are threads. */
export function threadedCollectionWork(threads: PipelineThreads): CollectionWork {
  return {
    readRunTopics: (runs) => Promise.all(runs.map((file) => threads.run({ kind: 'run-topics', file }))),
    spillRuns: (runs, folder, partitions) =>
      Promise.all(runs.map((file, fileIndex) => threads.run({ kind: 'spill-run', file, fileIndex, folder, partitions }))),
    partitionCases: (request) => threads.run({ kind: 'trec-partition', request }),
  };
}
