import { createReadStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { ObjectStore } from '../ports/object-store.js';
import { sendAll, type WorkQueue } from '../ports/work-queue.js';
import { compareText } from '../report/ordering.js';
import type { CaseLine, Report } from '../schema/report.js';
import type { CheckMessage } from '../schema/pipeline-messages.js';
import type { Manifest } from '../schema/run-records.js';
import { rangeAggregatorOf, type RangeAggregator } from './aggregate-range.js';
import { checkJudgeSpend } from '../worker/judge-ceiling.js';
import { judgeCeilingOf } from '../run/judge-spend.js';
import { FULL_HTML_CASE_LIMIT } from './light-report-cases.js';
import type { MeanIntervals } from '../report/precomputed-intervals.js';
import { REDUCE_RANGE_SIZE, type RangePartial } from '../report/range-partial.js';
import { runCompletion, type RunCompletion } from '../run/run-completion.js';
import { fanOutRanges, SPLIT_REDUCE_FROM } from './split-reduce.js';
import { withScratchFolder } from '../run/scratch-folder.js';
import { writeRunReport } from './write-report.js';
import { runConfigOf } from '../run/stored-config.js';
import { advanceBatch, type BatchStep } from '../batch-judging/batch-rounds.js';
import type { BatchProvider } from '../batch-providers/batch-provider.js';
import { batchSettingsOf } from '../judge-client/batch-settings.js';
import type { RunConfig } from '../config/index.js';
import { FileWriter } from '../ports/file-writer.js';

export { REPORT_FILES } from './write-report.js';

export interface ReducerDependencies {
  readonly store: ObjectStore;
  /** Where a large run's reduce ranges are sent (split-reduce.ts). */
  readonly control: WorkQueue;
  readonly now: () => Date;
  /** From this many cases on, a run's reduce is split across invocations (split-reduce.ts); default SPLIT_REDUCE_FROM. */
  readonly splitReduceFrom?: number;
  /** Batch judging in the checks: a batch-judged run's jobs are submitted, polled and collected by its checks. */
  readonly batch?: ReducerBatchJudging;
  /** How a range of the run's records is aggregated: in this thread by default, or spread over threads (the embedded CLI). */
  readonly aggregate?: (runId: string) => RangeAggregator;
  /** The statistics' bootstrap intervals computed all at once (the embedded CLI: on its threads); else one after another here. */
  readonly intervals?: MeanIntervals;
  /**
   * Waits for the cases this process is judging when the check is about to
   * report (the embedded drive). Every case of the run may have ended while
   * a case delivered again (a visibility timeout that ran out) is still
   * being judged: its calls are counted once it ends, as those of a delivery
   * that wrote no result, so the report waits for it rather than leave calls
   * that were paid for out of the run's usage. Not past the run's deadline,
   * whose report does not wait. A Lambda reducer sees no other invocation and
   * has none.
   */
  readonly judgingSettled?: () => Promise<void>;
}

export interface ReducerBatchJudging {
  /** Where the waiting cases are sent again. */
  readonly cases: WorkQueue;
  /** The batch API of a run's judge provider; undefined when it cannot judge (no key), and the run's cases then are judged as they are. */
  providerFor(config: RunConfig): Promise<BatchProvider | undefined>;
}

/** What a run is doing while a check finds it unfinished. */
export type RunProgress =
  | { readonly kind: 'cases'; readonly finished: number; readonly total: number }
  /** A batch-judged run took a step of its rounds (jobs submitted, polled, collected, cases sent again). */
  | { readonly kind: 'batch'; readonly step: BatchStep }
  | { readonly kind: 'reducing'; readonly pendingRanges: number; readonly ranges: number };

/**
 * Why a batch-judged run cannot go on by itself, though nothing of it is
 * lost and `assay resume` takes it further: a job failed validation (its
 * requests go again in a new job), cases were refused for a round below the
 * provider's minimum a job, or the provider refused a call for good or did
 * not answer for longer than its jobs' window and the run's deadline allow.
 */
export type BatchEnding =
  | Extract<BatchStep, { kind: 'failed' }>
  | Extract<BatchStep, { kind: 'below-minimum' }>
  | Extract<BatchStep, { kind: 'unreachable' }>;

/**
 * A run's next step, as a check decides it, for whichever driver asked: the
 * reducer Lambda turns a wait into a delayed check message (scheduleCheck),
 * the embedded drive sleeps it. `attempt` numbers the next check, for its
 * backoff.
 */
export type RunAction =
  | { readonly kind: 'wait'; readonly runId: string; readonly seconds: number; readonly attempt: number; readonly progress: RunProgress }
  /**
   * The run cannot go on by itself: a driver someone watches stops with the
   * ending; one that nobody watches (the deployed reducer) looks again after
   * `seconds`, until the run's deadline reports it.
   */
  | { readonly kind: 'stopped'; readonly runId: string; readonly ending: BatchEnding; readonly seconds: number; readonly attempt: number }
  | { readonly kind: 'reported'; readonly runId: string; readonly report: Report; readonly keys: readonly string[] };

/**
 * The reducer's work on one check of a run: count the run's results and
 * failures against its case ids (run-progress.ts lists only the shards not
 * yet complete). While cases are outstanding and the deadline has not
 * passed, it says when to check next; with run.max_judge_cost it also sums
 * the workers' judge spend and marks the ceiling reached once it is passed
 * (judge-ceiling.ts); a batch-judged run's check takes its rounds a step
 * (shared/batch-judging/batch-rounds.ts) and decides when its jobs are looked at
 * again, or that the run cannot go on by itself. Once every case has a
 * result or a failure, or at the deadline (the rest are then reported as
 * missing), it aggregates, writes `reports/<suite>/<run>/report.{json,md,html}`
 * and `cases.jsonl`, and points `reports/<suite>/latest.json` at them. A run
 * of SPLIT_REDUCE_FROM cases or more is aggregated range by range by other
 * invocations first (split-reduce.ts), and a later check merges their
 * partials. The report compares the run with the suite's baseline or
 * previous run (baselines.ts). It is a pure function of the stored records,
 * so writing it twice writes the same bytes.
 */
export async function checkRun(dependencies: ReducerDependencies, message: CheckMessage): Promise<RunAction> {
  const { store } = dependencies;
  const completion = await runCompletion(store, message.run_id);
  const { manifest, caseIds } = completion;
  const runId = manifest.run_id;
  const config = runConfigOf(manifest);
  const now = dependencies.now();
  const pastDeadline = now.getTime() >= completion.deadline.getTime();
  const batchJudging = pastDeadline ? undefined : await batchStep(dependencies, manifest);
  if (batchJudging !== undefined && batchJudging.step.kind !== 'done') {
    // Its jobs as estimated and its online calls (fallbacks, rounds below a job's minimum) against run.max_judge_cost.
    await checkJudgeSpend(store, manifest);
    return batchAction(runId, batchJudging.step, batchJudging.pollSeconds, config.run.check_delay_seconds, message.attempt, now);
  }
  if (batchJudging === undefined && completion.finished < completion.total && !pastDeadline) {
    await checkJudgeSpend(store, manifest);
    return backedOff(runId, config.run.check_delay_seconds, message.attempt, {
      kind: 'cases',
      finished: completion.finished,
      total: completion.total,
    });
  }
  // Past the deadline the report is written as it stands (the cases still out are missing), without waiting.
  if (!pastDeadline) await dependencies.judgingSettled?.();
  if (caseIds.length >= (dependencies.splitReduceFrom ?? SPLIT_REDUCE_FROM)) {
    const fanned = await fanOutRanges(dependencies, completion);
    if (fanned.kind === 'merged') return { kind: 'reported', runId, ...fanned.reported };
    return backedOff(runId, config.run.check_delay_seconds, message.attempt, {
      kind: 'reducing',
      pendingRanges: fanned.pending,
      ranges: fanned.ranges,
    });
  }
  const aggregate = dependencies.aggregate?.(runId);
  return reportRun(store, completion, aggregate, dependencies.intervals);
}

/** A wait while cases are judged or ranges reduced: checks back off from check_delay_seconds (nextCheckDelay). */
function backedOff(runId: string, checkDelaySeconds: number, attempt: number, progress: RunProgress): RunAction {
  return { kind: 'wait', runId, seconds: nextCheckDelay(checkDelaySeconds, attempt), attempt: attempt + 1, progress };
}

/**
 * The next action of a batch-judged run after a step of its rounds. While
 * its jobs are with the provider (or the provider does not answer), the
 * jobs are looked at after judge.batch.poll_seconds, then half as long again
 * each time, up to every LONGEST_JOB_POLL_SECONDS (a provider's retry-after
 * honoured); once cases are judged again, checks come as for any run. A job
 * that failed validation, cases refused below the provider's minimum, and a
 * provider that refused a call for good or did not answer until its jobs'
 * window or the run's deadline passed, stop the run.
 */
function batchAction(
  runId: string,
  step: BatchStep,
  pollSeconds: number,
  checkDelaySeconds: number,
  attempt: number,
  now: Date,
): RunAction {
  const poll = Math.min(LONGEST_JOB_POLL_SECONDS, pollSeconds * 1.5 ** attempt);
  const stopped = (ending: BatchEnding): RunAction => ({
    kind: 'stopped',
    runId,
    ending,
    seconds: LONGEST_JOB_POLL_SECONDS,
    attempt: attempt + 1,
  });
  switch (step.kind) {
    case 'failed':
      return stopped(step);
    case 'below-minimum':
      if (step.action === 'refuse') return stopped(step);
      break;
    case 'unreachable':
      if (!step.transient || now.getTime() >= step.giveUpAt.getTime()) return stopped(step);
      return {
        kind: 'wait',
        runId,
        seconds: Math.max(poll, (step.retryAfterMs ?? 0) / 1000),
        attempt: attempt + 1,
        progress: { kind: 'batch', step },
      };
    case 'submitted':
      // The jobs were just made: their first look comes after poll_seconds.
      return { kind: 'wait', runId, seconds: pollSeconds, attempt: 1, progress: { kind: 'batch', step } };
    case 'in-progress':
      return { kind: 'wait', runId, seconds: poll, attempt: attempt + 1, progress: { kind: 'batch', step } };
    case 'judging':
    case 'requeued':
    case 'done':
      break;
  }
  // Cases are judged again, or online: checks come seconds apart again, counting from the first.
  return { kind: 'wait', runId, seconds: nextCheckDelay(checkDelaySeconds, 0), attempt: 1, progress: { kind: 'batch', step } };
}

/**
 * Sends the run's next check as a delayed message on the control queue, for
 * a driver whose waits are messages (the reducer Lambda): SQS delays are whole
 * seconds, at most LONGEST_JOB_POLL_SECONDS here.
 */
export async function scheduleCheck(control: WorkQueue, action: Extract<RunAction, { kind: 'wait' | 'stopped' }>): Promise<void> {
  const check: CheckMessage = { kind: 'check', run_id: action.runId, attempt: action.attempt };
  await sendAll(control, [{ id: 'check', body: JSON.stringify(check), delaySeconds: Math.max(1, Math.ceil(action.seconds)) }]);
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
): Promise<Extract<RunAction, { kind: 'reported' }>> {
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

/**
 * The longest wait between two looks at a run's batch jobs, on every driver:
 * five minutes, well within SQS's longest delay of a message (15 minutes).
 */
export const LONGEST_JOB_POLL_SECONDS = 300;

/**
 * A batch-judged run's step, when its provider can be reached from here;
 * undefined for a run judged online (or whose judges have no key, and so are
 * lexical: no job to make).
 */
async function batchStep(
  dependencies: ReducerDependencies,
  manifest: Manifest,
): Promise<{ step: BatchStep; pollSeconds: number } | undefined> {
  const config = runConfigOf(manifest);
  const settings = batchSettingsOf(config.judge.batch);
  if (settings === undefined || dependencies.batch === undefined) return undefined;
  const provider = await dependencies.batch.providerFor(config);
  if (provider === undefined) return undefined;
  const step = await advanceBatch(
    {
      store: dependencies.store,
      cases: dependencies.batch.cases,
      provider,
      settings,
      now: dependencies.now,
      ceiling: judgeCeilingOf(manifest),
    },
    manifest.run_id,
  );
  return { step, pollSeconds: settings.pollSeconds };
}

/** Joins the files into one, in order, removing them; one file is only renamed. */
async function joinFiles(files: readonly string[], path: string): Promise<void> {
  if (files.length === 1) {
    await rename(files[0] as string, path);
    return;
  }
  const output = new FileWriter(path);
  try {
    for (const file of files) {
      for await (const chunk of createReadStream(file)) await output.write(chunk);
      await rm(file);
    }
  } finally {
    await output.close();
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
