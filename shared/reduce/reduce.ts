import { createReadStream, createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { once } from 'node:events';
import { join } from 'node:path';
import type { ObjectStore } from '../ports/object-store.js';
import { sendAll, type WorkQueue } from '../ports/work-queue.js';
import { compareText } from '../report/ordering.js';
import type { CaseLine, Report } from '../schema/report.js';
import type { CheckMessage } from '../schema/pipeline-messages.js';
import type { Manifest } from '../schema/run-records.js';
import { rangeAggregatorOf, type RangeAggregator } from './aggregate-range.js';
import { checkJudgeSpend } from '../worker/judge-ceiling.js';
import { FULL_HTML_CASE_LIMIT } from './light-report-cases.js';
import type { MeanIntervals } from '../report/interval-batch.js';
import { REDUCE_RANGE_SIZE, type RangePartial } from '../report/range-partial.js';
import { runCompletion, runDeadline, type RunCompletion } from '../run/run-completion.js';
import { fanOutRanges, SPLIT_REDUCE_FROM } from './split-reduce.js';
import { withScratchFolder } from '../run/scratch-folder.js';
import { writeRunReport } from './write-report.js';
import { readManifest, runConfigOf } from '../run/stored-config.js';
import { advanceBatch, type BatchStep } from '../batch/batch-rounds.js';
import type { BatchProvider } from '../judge-client/batch/batch-provider.js';
import { batchSettingsOf } from '../judge-client/batch/batch-settings.js';
import type { RunConfig } from '../config/index.js';

export { REPORT_FILES } from './write-report.js';

export interface ReducerDependencies {
  readonly store: ObjectStore;
  readonly control: WorkQueue;
  readonly now: () => Date;
  /** From this many cases on, a run's reduce is split across invocations (split-reduce.ts); default SPLIT_REDUCE_FROM. */
  readonly splitReduceFrom?: number;
  /**
   * A run whose report another part of this process writes as soon as its
   * cases are done: its checks keep the waiting work (the judge spend, the
   * next check) but read none of its records and never write its report,
   * which would reduce the whole run a second time.
   */
  readonly reportedElsewhere?: string;
  /** The batch side of the checks: a batch-judged run's jobs are submitted, polled and collected by its checks. */
  readonly batch?: ReducerBatch;
}

export interface ReducerBatch {
  /** Where the waiting cases are sent again. */
  readonly cases: WorkQueue;
  /** The batch API of a run's judge provider; undefined when it cannot judge (no key), and the run's cases then are judged as they are. */
  providerFor(config: RunConfig): Promise<BatchProvider | undefined>;
}

export type ReduceOutcome =
  | { kind: 'waiting'; runId: string; finished: number; total: number }
  /** A batch-judged run took a step of its rounds (jobs submitted, polled, collected, cases sent again). */
  | { kind: 'batch'; runId: string; step: BatchStep }
  /** A check of a run reported elsewhere in this process (ReducerDependencies.reportedElsewhere): its records were not read. */
  | { kind: 'reported-elsewhere'; runId: string }
  | { kind: 'reducing'; runId: string; pendingRanges: number; ranges: number }
  | { kind: 'reported'; runId: string; report: Report; keys: readonly string[] };

/**
 * The reducer's work on one check message: count the run's results and
 * failures against its case ids (run-progress.ts lists only the shards not
 * yet complete). While cases are outstanding and the deadline has not
 * passed, it schedules the next check (a delayed message on the control
 * queue); with run.max_judge_cost it also sums the workers' judge spend and
 * marks the ceiling reached once it is passed (judge-ceiling.ts). Once every case has a result or a failure, or at the deadline (the
 * rest are then reported as missing), it aggregates, writes
 * `reports/<suite>/<run>/report.{json,md,html}` and `cases.jsonl`, and
 * points `reports/<suite>/latest.json` at them. A run of SPLIT_REDUCE_FROM
 * cases or more is aggregated range by range by other invocations first
 * (split-reduce.ts), and this check then merges their partials. The report
 * compares the run with the suite's baseline or previous run (baselines.ts).
 * It is a pure function of the stored records, so writing it twice writes
 * the same bytes.
 *
 * A run reported elsewhere in this process (`assay run`, `resume`, `redrive`
 * count their cases as they end) is checked without its records: the check
 * only sums the judge spend and schedules the next, until the deadline.
 * Reading a million case ids and listing every shard at each check would
 * cost that process a few hundred MB of garbage each time, for nothing.
 */
export async function checkRun(dependencies: ReducerDependencies, message: CheckMessage): Promise<ReduceOutcome> {
  const { store } = dependencies;
  if (message.run_id === dependencies.reportedElsewhere) {
    const manifest = await readManifest(store, message.run_id);
    if (dependencies.now().getTime() < (await runDeadline(store, manifest)).getTime()) {
      await checkJudgeSpend(store, manifest);
      await scheduleNextCheck(dependencies.control, manifest, message.attempt + 1);
    }
    return { kind: 'reported-elsewhere', runId: manifest.run_id };
  }
  const completion = await runCompletion(store, message.run_id);
  const { manifest, caseIds } = completion;
  const pastDeadline = dependencies.now().getTime() >= completion.deadline.getTime();
  const batched = pastDeadline ? undefined : await batchStep(dependencies, manifest);
  if (batched !== undefined && batched.step.kind !== 'done') {
    // Its jobs as estimated and its online calls (fallbacks, rounds below a job's minimum) against run.max_judge_cost.
    await checkJudgeSpend(store, manifest);
    // Checks come minutes apart while jobs are with the provider; seconds apart again (counting from 0) once cases are judged.
    // An outage of the provider is waited out the same way, until the deadline reports the run.
    const polling = batched.step.kind === 'in-progress' || batched.step.kind === 'submitted' || batched.step.kind === 'unreachable';
    await scheduleNextCheck(dependencies.control, manifest, polling ? message.attempt + 1 : 0, polling ? batched.pollDelays : undefined);
    return { kind: 'batch', runId: manifest.run_id, step: batched.step };
  }
  if (batched === undefined && completion.finished < caseIds.length && !pastDeadline) {
    await checkJudgeSpend(store, manifest);
    await scheduleNextCheck(dependencies.control, manifest, message.attempt + 1);
    return { kind: 'waiting', runId: manifest.run_id, finished: completion.finished, total: caseIds.length };
  }
  if (caseIds.length >= (dependencies.splitReduceFrom ?? SPLIT_REDUCE_FROM)) {
    const fanned = await fanOutRanges(dependencies, completion);
    if (fanned.kind === 'merged') return { kind: 'reported', runId: manifest.run_id, ...fanned.reported };
    await scheduleNextCheck(dependencies.control, manifest, message.attempt + 1);
    return { kind: 'reducing', runId: manifest.run_id, pendingRanges: fanned.pending, ranges: fanned.ranges };
  }
  return reportRun(store, completion);
}

/**
 * Aggregates a run's records in this process and writes its report files; the
 * run is complete or past its deadline. The records are read range by range
 * (REDUCE_RANGE_SIZE sorted case ids, READ_CONCURRENCY reads in flight), each
 * range's lines go to local files at once, joined into cases.jsonl at the
 * end, and only the per-metric columns stay in memory. `aggregate` does the
 * reading and folding of a range, and `intervals` the statistics' bootstrap
 * intervals: in this thread by default, or spread over threads (the embedded CLI).
 */
export async function reportRun(
  store: ObjectStore,
  completion: RunCompletion,
  aggregate: RangeAggregator = rangeAggregatorOf(store, completion.manifest.run_id),
  intervals?: MeanIntervals,
): Promise<Extract<ReduceOutcome, { kind: 'reported' }>> {
  const { manifest } = completion;
  const sortedCaseIds = [...completion.caseIds].sort(compareText);
  return withScratchFolder('assay-reduce-', async (folder) => {
    const casesPath = join(folder, 'cases.jsonl');
    const keepLines = sortedCaseIds.length <= FULL_HTML_CASE_LIMIT;
    const lines: CaseLine[] = [];
    const partials: RangePartial[] = [];
    const linesFiles: string[] = [];
    for (let range = 0; range * REDUCE_RANGE_SIZE < sortedCaseIds.length; range++) {
      const ids = sortedCaseIds.slice(range * REDUCE_RANGE_SIZE, (range + 1) * REDUCE_RANGE_SIZE);
      const aggregated = await aggregate(range, ids, keepLines, join(folder, `lines-${range}`));
      partials.push(aggregated.partial);
      if (keepLines) lines.push(...(aggregated.lines ?? []));
      linesFiles.push(...aggregated.linesFiles);
    }
    await joinFiles(linesFiles, casesPath);
    const written = await writeRunReport(store, {
      manifest,
      sortedCaseIds,
      partials,
      casesPath,
      lines: keepLines ? lines : undefined,
      ...(intervals === undefined ? {} : { intervals }),
    });
    return { kind: 'reported', runId: manifest.run_id, ...written };
  });
}

/** The run's next check (the `attempt`-th), a delayed message on the control queue, later the more checks came before it. */
async function scheduleNextCheck(
  control: WorkQueue,
  manifest: Manifest,
  attempt: number,
  delays?: { readonly first: number; readonly longest: number },
): Promise<void> {
  const check: CheckMessage = { kind: 'check', run_id: manifest.run_id, attempt };
  const earlier = Math.max(0, attempt - 1);
  const delaySeconds =
    delays === undefined
      ? nextCheckDelay(runConfigOf(manifest).run.check_delay_seconds, earlier)
      : Math.min(delays.longest, Math.round(delays.first * 1.5 ** earlier));
  await sendAll(control, [{ id: 'check', body: JSON.stringify(check), delaySeconds }]);
}

/** SQS's longest delay of a message: while a run's jobs are with the provider, its checks come at most this far apart. */
const LONGEST_CHECK_DELAY_SECONDS = 900;

/**
 * A batch-judged run's step, when its provider can be reached from here;
 * undefined for a run judged online (or whose judges have no key, and so are
 * lexical: no job to make).
 */
async function batchStep(
  dependencies: ReducerDependencies,
  manifest: Manifest,
): Promise<{ step: BatchStep; pollDelays: { first: number; longest: number } } | undefined> {
  const config = runConfigOf(manifest);
  const settings = batchSettingsOf(config.judge.batch);
  if (settings === undefined || dependencies.batch === undefined) return undefined;
  const provider = await dependencies.batch.providerFor(config);
  if (provider === undefined) return undefined;
  const maxCost = config.run.max_judge_cost;
  const prices = config.judge.prices;
  const ceiling = maxCost === undefined || prices === undefined ? undefined : { maxCost, prices };
  const step = await advanceBatch(
    { store: dependencies.store, cases: dependencies.batch.cases, provider, settings, now: dependencies.now, ceiling },
    manifest.run_id,
  );
  // judge.batch.poll_seconds first (whole seconds, as SQS delays are), then half as long again each check.
  return { step, pollDelays: { first: Math.max(1, Math.ceil(settings.pollSeconds)), longest: LONGEST_CHECK_DELAY_SECONDS } };
}

/** Joins the files into one, in order, removing them; one file is only renamed. */
async function joinFiles(files: readonly string[], path: string): Promise<void> {
  if (files.length === 1) {
    await rename(files[0] as string, path);
    return;
  }
  const output = createWriteStream(path);
  try {
    for (const file of files) {
      for await (const chunk of createReadStream(file)) if (!output.write(chunk)) await once(output, 'drain');
      await rm(file);
    }
  } finally {
    output.end();
    await once(output, 'close');
  }
}

/**
 * Checks back off: 1.5 times longer each time, at most a minute apart, so a
 * short run reports within seconds of its last case and a long one costs a
 * handful of checks, not thousands.
 */
export function nextCheckDelay(baseSeconds: number, attempt: number): number {
  return Math.min(60, Math.max(baseSeconds, Math.round(baseSeconds * 1.5 ** attempt)));
}
