import { createFailureRecorderHandler } from '../../functions/failure-recorder.js';
import { quietTelemetry } from '../../functions/handler-context.js';
import { createJudgeWorkerHandler } from '../../functions/judge-worker.js';
import type { CaseOutcome, WorkerDependencies } from '../../shared/worker/evaluate-case.js';
import type { ReduceOutcome } from '../../shared/reduce/reduce.js';
import { runCompletion } from '../../shared/run/run-completion.js';
import { runKeys } from '../../shared/run/run-identity.js';
import { runEventSources, type SqsHandler } from '../../shared/ports/lambda-event-source.js';
import { deferTo } from '../../shared/worker/rate-limit-deferral.js';
import type { Report } from '../../shared/schema/report.js';
import type { Infrastructure } from './store-and-queues.js';
import type { Progress } from './progress.js';
import { threadedAggregator, threadedIntervals, threadedJudgeWorker, type PipelineThreads } from '../threads/pipeline-threads.js';
import { copyReportFiles } from './report-out.js';
import { advanceBatch, type BatchDependencies, type BatchStep } from '../../shared/batch/batch-rounds.js';
import type { BatchProvider } from '../../shared/judge-client/batch/batch-provider.js';
import type { BatchSettings } from '../../shared/judge-client/batch/batch-settings.js';
import type { BatchCeiling } from '../../shared/batch/batch-ceiling.js';
import { FinishedCountdown } from './finished-countdown.js';

export interface DriveOptions {
  /** Cases of this run this drive waits for; when it has seen them all finish, it checks the run at once. */
  readonly expectedCases: number;
  /**
   * Judging for a run's stored config. Queues at an endpoint may be shared
   * with other runs, so a case is judged with its own run's judges, not
   * with those of the run this process started.
   */
  readonly judgingFor: WorkerDependencies['judgingFor'];
  readonly tracker: Progress;
  readonly now: () => Date;
  /** Judge calls in flight; a quarter of it is the number of case batches in flight. */
  readonly concurrency: number;
  /** Threads over the store folder: the judge worker and the reduce run there (a run that makes no judge call). */
  readonly threads?: PipelineThreads;
  /** A batch-judged run: its rounds of batch jobs are driven here, between its cases (shared/batch/). */
  readonly batch?: BatchDrive;
}

export interface BatchDrive {
  readonly provider: BatchProvider;
  readonly settings: BatchSettings;
  /** run.max_judge_cost: no job is submitted that it does not cover. */
  readonly ceiling?: BatchCeiling;
  /** End the drive once the round's jobs are submitted (`assay run --detach`): `assay resume` finishes the run. */
  readonly detach: boolean;
  /** Each step the rounds took, for the progress line. */
  readonly onStep: (step: BatchStep) => void;
}

/**
 * How a drive ended: the report written; or, for a batch-judged run, detached
 * after submitting its jobs, stopped by a job that failed validation, or by
 * cases refused for a round below the provider's minimum a job.
 */
export type DriveOutcome =
  | { readonly kind: 'reported'; readonly report: Report }
  | { readonly kind: 'detached'; readonly step: Extract<BatchStep, { kind: 'submitted' }> }
  | { readonly kind: 'batch-failed'; readonly step: Extract<BatchStep, { kind: 'failed' }> }
  | { readonly kind: 'batch-refused'; readonly step: Extract<BatchStep, { kind: 'below-minimum' }> }
  /** The provider refused a call for good, or did not answer for longer than its jobs' window and the run's deadline allow; `since` is when it first did not. */
  | { readonly kind: 'batch-unreachable'; readonly step: Extract<BatchStep, { kind: 'unreachable' }>; readonly since: Date };

/** Longest wait between two looks at the store while this drive sees no case of its run finish. */
const MAX_IDLE_CHECK_MS = 10_000;
/** A batch job is looked at after judge.batch.poll_seconds at first, then half as long again each time, at most every five minutes. */
const LONGEST_JOB_POLL_MS = 300_000;

/**
 * Drives the judge worker, failure recorder and reducer handlers from their
 * queues, as Lambda's event source mappings would, until the report of
 * `runId` is written. The handlers serve any run whose messages reach these
 * queues (another `assay run` at the same endpoint included); this drive
 * ends when its own run is complete, which it reads from the store: at once
 * when it has seen as many of its cases finish as it expects (counted, not
 * listed: finished-countdown.ts), otherwise whenever it has been idle a while
 * (other processes may be judging its cases). It then
 * writes the report itself instead of waiting for the next scheduled check,
 * which another process may take. A handler that throws outside a record (a
 * bug) stops the loop and is rethrown, instead of spinning forever.
 */
export async function driveRun(infrastructure: Infrastructure, runId: string, options: DriveOptions): Promise<DriveOutcome> {
  const telemetry = quietTelemetry();
  const { store } = infrastructure;
  let reported: Extract<ReduceOutcome, { kind: 'reported' }> | undefined;
  let batchEnd: Exclude<DriveOutcome, { kind: 'reported' }> | undefined;
  const handlerErrors: unknown[] = [];
  const finished = (): boolean => reported !== undefined || batchEnd !== undefined || handlerErrors.length > 0;
  // Ends the queues' long polls once the drive is finished, so the process does not wait them out.
  const polls = new AbortController();
  const countdown = new FinishedCountdown(options.expectedCases);
  let wake: () => void = () => {};
  const caseFinished = (outcomeRunId: string): void => {
    if (outcomeRunId !== runId) return;
    countdown.caseEnded();
    wake();
  };
  const onOutcome = (outcome: CaseOutcome): void => {
    if (outcome.runId !== runId) return;
    if (outcome.kind === 'done') {
      options.tracker.caseDone();
      caseFinished(outcome.runId);
    } else if (outcome.kind === 'waiting') {
      options.tracker.caseWaiting();
      caseFinished(outcome.runId);
    } else {
      options.tracker.caseRetried();
    }
  };
  const { threads } = options;
  const defer = deferTo(infrastructure.cases);
  const worker =
    threads === undefined
      ? createJudgeWorkerHandler({ store, judgingFor: options.judgingFor, defer }, telemetry, onOutcome)
      : threadedJudgeWorker(threads, onOutcome);
  const recordFailures = createFailureRecorderHandler(store, telemetry);
  const recorder = async (event: Parameters<typeof recordFailures>[0]) => {
    const outcomes = await recordFailures(event);
    for (const outcome of outcomes) if (outcome.kind === 'recorded') caseFinished(outcome.runId);
    return outcomes;
  };
  // One process reduces in-process (reportRun, range by range): a split reduce only pays off across Lambda invocations.
  // The reducer's code (aggregation, statistics, report pages) is loaded on its first check, not before the first judge call.
  let reducerHandler: Promise<SqsHandler> | undefined;
  const reducer: SqsHandler = async (event, context) => {
    reducerHandler ??= import('../../functions/reducer.js').then(({ createReducerHandler }) =>
      createReducerHandler(
        {
          store,
          control: infrastructure.control,
          cases: infrastructure.cases,
          now: options.now,
          splitReduceFrom: Number.POSITIVE_INFINITY,
          reportedElsewhere: runId,
        },
        telemetry,
      ),
    );
    return (await reducerHandler)(event, context);
  };
  const onHandlerError = (error: unknown): void => {
    handlerErrors.push(error);
    polls.abort();
    wake();
  };
  const onHeartbeatError = (error: unknown): void =>
    telemetry.logger.warn('a heartbeat could not extend a message', { error: String(error) });
  const visibilityTimeoutSeconds = infrastructure.visibilityTimeoutSeconds;

  const batch =
    options.batch === undefined ? undefined : batchStepper(options.batch, { store, cases: infrastructure.cases, now: options.now }, runId);

  const watch = async (): Promise<void> => {
    let idleMs = 1_000;
    /** When the provider first did not answer, in the outage going on; undefined while it answers. */
    let unreachableSince: Date | undefined;
    while (!finished()) {
      const woken = await new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => resolve(false), idleMs);
        wake = () => {
          clearTimeout(timer);
          resolve(true);
        };
      });
      if (finished()) return;
      if (woken && !countdown.checkDue) {
        idleMs = 1_000;
        continue;
      }
      const completion = await runCompletion(store, runId);
      const pastDeadline = options.now().getTime() >= completion.deadline.getTime();
      const step = batch === undefined || pastDeadline ? undefined : await batch.step();
      if (step !== undefined) unreachableSince = step.kind === 'unreachable' ? (unreachableSince ?? options.now()) : undefined;
      if (step?.kind === 'unreachable') {
        // A short outage is waited out, with the polls' backoff, as long as the jobs' window and the run's deadline allow.
        if (!step.transient || options.now().getTime() >= step.giveUpAt.getTime()) {
          batchEnd = { kind: 'batch-unreachable', step, since: unreachableSince ?? options.now() };
          polls.abort();
          return;
        }
        idleMs = Math.max(step.retryAfterMs ?? 0, batch?.nextPoll(false) ?? MAX_IDLE_CHECK_MS);
        continue;
      }
      if (pastDeadline || step?.kind === 'done' || (batch === undefined && completion.finished >= completion.caseIds.length)) {
        const { reportRun } = await import('../../shared/reduce/reduce.js');
        reported = await reportRun(
          store,
          completion,
          threads === undefined ? undefined : threadedAggregator(threads, runId),
          threads === undefined ? undefined : threadedIntervals(threads),
        );
        polls.abort();
        return;
      }
      if (step === undefined || step.kind === 'judging') {
        countdown.checked(step?.kind === 'judging' ? step.unreported : completion.unfinished.length);
        idleMs = Math.min(MAX_IDLE_CHECK_MS, idleMs * 1.5);
        continue;
      }
      if (step.kind === 'requeued') {
        countdown.checked(step.cases);
        idleMs = 1_000;
        continue;
      }
      if (
        (step.kind === 'submitted' && options.batch?.detach === true) ||
        step.kind === 'failed' ||
        (step.kind === 'below-minimum' && step.action === 'refuse')
      ) {
        batchEnd =
          step.kind === 'failed'
            ? { kind: 'batch-failed', step }
            : step.kind === 'below-minimum'
              ? { kind: 'batch-refused', step }
              : { kind: 'detached', step };
        polls.abort();
        return;
      }
      if (step.kind === 'below-minimum') {
        // Its cases are judged online now: the store is looked at again soon, as for cases being judged.
        countdown.checked(step.cases);
        idleMs = 1_000;
        continue;
      }
      // Jobs are with the provider: no case moves until they finish, so the drive looks at them, less often as time goes by.
      idleMs = batch?.nextPoll(step.kind === 'submitted') ?? MAX_IDLE_CHECK_MS;
    }
  };

  await Promise.all([
    watch().catch(onHandlerError),
    runEventSources(
      [
        // On threads, a batch waits for each thread beside the one it judges: a thread that finishes takes the next at once, not after this thread has received it.
        {
          queue: infrastructure.cases,
          handler: worker,
          batchSize: 10,
          concurrency: Math.max(1, Math.ceil(options.concurrency / 4), 2 * (threads?.size ?? 0)),
          onHandlerError,
          visibilityTimeoutSeconds,
          onHeartbeatError,
        },
        {
          queue: infrastructure.deadLetters,
          handler: recorder,
          batchSize: 10,
          concurrency: 1,
          onHandlerError,
          visibilityTimeoutSeconds,
          onHeartbeatError,
        },
        // Scheduled checks of any run at these queues; this run's own report is written by the watch above.
        {
          queue: infrastructure.control,
          handler: reducer,
          batchSize: 1,
          concurrency: 1,
          onHandlerError,
          visibilityTimeoutSeconds,
          onHeartbeatError,
        },
      ],
      finished,
      1,
      polls.signal,
    ),
  ]);
  options.tracker.finish();
  if (handlerErrors.length > 0) throw handlerErrors[0] instanceof Error ? handlerErrors[0] : new Error(String(handlerErrors[0]));
  if (batchEnd !== undefined) return batchEnd;
  if (reported === undefined) throw new Error('The drive ended without a report');
  return { kind: 'reported', report: reported.report };
}

/** driveRun for a run that ends with its report: no batch jobs to detach from or to fail (the tests' drives, a run judged online). */
export async function driveToReport(infrastructure: Infrastructure, runId: string, options: Omit<DriveOptions, 'batch'>): Promise<Report> {
  const outcome = await driveRun(infrastructure, runId, options);
  if (outcome.kind !== 'reported') throw new Error(`The drive of run ${runId} ended ${outcome.kind} without a report`);
  return outcome.report;
}

/** The rounds of a batch-judged run, a step at a time, with the wait before the next look at its jobs. */
function batchStepper(
  drive: BatchDrive,
  place: Pick<BatchDependencies, 'store' | 'cases' | 'now'>,
  runId: string,
): { step(): Promise<BatchStep>; nextPoll(fresh: boolean): number } {
  const firstPollMs = drive.settings.pollSeconds * 1000;
  let pollMs = firstPollMs;
  return {
    async step() {
      const step = await advanceBatch({ ...place, provider: drive.provider, settings: drive.settings, ceiling: drive.ceiling }, runId);
      drive.onStep(step);
      return step;
    },
    nextPoll(fresh) {
      if (fresh) pollMs = firstPollMs;
      const wait = pollMs;
      pollMs = Math.min(LONGEST_JOB_POLL_MS, pollMs * 1.5);
      return wait;
    },
  };
}

/** Copies the run's report files from the store to a local folder; returns their paths. */
export async function copyReport(infrastructure: Infrastructure, suite: string, runId: string, outFolder: string): Promise<string[]> {
  const { REPORT_FILES } = await import('../../shared/reduce/reduce.js');
  return copyReportFiles(infrastructure.store, (name) => runKeys.report(suite, runId, name), REPORT_FILES, outFolder);
}
