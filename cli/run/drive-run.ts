import { runConsumers, type QueueConsumer } from '../../shared/ports/queue-consumer.js';
import type { ReceivedMessage } from '../../shared/ports/work-queue.js';
import type { ControlDependencies } from '../../shared/reduce/control-messages.js';
import type { BatchEnding, ReducerDependencies, RunAction } from '../../shared/reduce/reduce.js';
import { runKeys } from '../../shared/run/run-identity.js';
import { readJsonWith } from '../../shared/schema/parse-json-with.js';
import { controlMessageSchema } from '../../shared/schema/pipeline-messages.js';
import type { Report } from '../../shared/schema/report.js';
import type { BatchStep } from '../../shared/batch-judging/batch-rounds.js';
import type { BatchProvider } from '../../shared/batch-providers/batch-provider.js';
import { comesBack, deliverCases, type CaseDelivery, type DeliveredCase } from '../../shared/worker/case-delivery.js';
import type { CaseOutcome, WorkerDependencies } from '../../shared/worker/evaluate-case.js';
import { deferTo } from '../../shared/worker/rate-limit-deferral.js';
import { recordFailure } from '../../shared/worker/record-failure.js';
import { threadedAggregator, threadedCaseDelivery, threadedIntervals, type PipelineThreads } from '../threads/pipeline-threads.js';
import { FinishedCountdown } from './finished-countdown.js';
import type { Progress } from './progress.js';
import { copyReportFiles } from './report-out.js';
import type { Infrastructure } from './store-and-queues.js';

export interface DriveOptions {
  /** Cases of this run this drive waits for; when it has seen them all end, it checks the run at once. */
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
  /** A batch-judged run: its provider, and whether to end once its jobs are submitted (shared/batch-judging/). */
  readonly batch?: BatchJudgingDrive;
}

export interface BatchJudgingDrive {
  readonly provider: BatchProvider;
  /** End the drive once the round's jobs are submitted (`assay run --detach`): `assay resume` finishes the run. */
  readonly detach: boolean;
  /** Each step the rounds took, for the progress line. */
  readonly onStep: (step: BatchStep) => void;
}

/**
 * How a drive ended: the report written; or, for a batch-judged run, detached
 * after submitting its jobs, or stopped where the run cannot go on by
 * itself (reduce.ts BatchEnding): `assay resume` takes it further.
 */
export type DriveOutcome =
  | { readonly kind: 'reported'; readonly report: Report }
  | { readonly kind: 'detached'; readonly step: Extract<BatchStep, { kind: 'submitted' }> }
  | { readonly kind: 'stopped'; readonly ending: BatchEnding };

/**
 * A case judged here may take as long as the longest Lambda invocation: one
 * whose judgments still run then is cut and comes back, as it would deployed.
 */
const CASE_TIME_MS = 900_000;

/**
 * The embedded driver of a run (`assay run`, `resume`, `redrive`): it
 * consumes the run's queues, handing each message to the pipeline's step
 * (a case to the judge worker's, a dead-lettered case to the failure
 * recorder's, a control message to the reducer's), and asks its own run's
 * next step of `checkRun`, the one place that decides it, sleeping each
 * wait it answers. It checks at once when it has seen as many of its cases
 * end as it expects (counted, not listed: finished-countdown.ts), so a run
 * reports the moment its last case ends. Queues at an endpoint may be
 * shared: another run's control messages are handled as the deployed
 * reducer handles them (its waits sent as delayed checks); this run's own
 * checks, answered by this loop, are acknowledged. A step that throws (a
 * bug) stops the drive and is rethrown, instead of spinning forever.
 */
export async function driveRun(infrastructure: Infrastructure, runId: string, options: DriveOptions): Promise<DriveOutcome> {
  // The queues' time: the drive's waits and its heartbeats keep it too.
  const { store, clock } = infrastructure;
  const countdown = new FinishedCountdown(options.expectedCases);
  const polls = new AbortController();
  const handlerErrors: unknown[] = [];
  let ended: DriveOutcome | undefined;
  const finished = (): boolean => ended !== undefined || handlerErrors.length > 0;
  let wakeUp = new AbortController();
  // A drive that expects no case of its own (a resume with nothing to send) checks its run at once.
  if (countdown.checkDue) wakeUp.abort();
  const caseEnded = (caseRunId: string): void => {
    if (caseRunId !== runId) return;
    countdown.caseEnded();
    if (countdown.checkDue) wakeUp.abort();
  };
  const onHandlerError = (error: unknown): void => {
    handlerErrors.push(error);
    polls.abort();
    wakeUp.abort();
  };
  const { threads, batch } = options;
  // The batches of case messages this process is judging, which a check about to report waits for.
  const judging = new Set<Promise<unknown>>();
  const reducer: ReducerDependencies = {
    store,
    control: infrastructure.control,
    now: options.now,
    // One process reduces in one pass (range by range): a split reduce only pays off across Lambda invocations.
    splitReduceFrom: Number.POSITIVE_INFINITY,
    ...(batch === undefined ? {} : { batch: { cases: infrastructure.cases, providerFor: async () => batch.provider } }),
    ...(threads === undefined ? {} : { aggregate: (id: string) => threadedAggregator(threads, id), intervals: threadedIntervals(threads) }),
    judgingSettled: async () => {
      await Promise.allSettled([...judging]);
    },
  };

  const steer = async (): Promise<void> => {
    let attempt = 0;
    let waitMs = 1_000;
    while (!finished()) {
      // Cut short once as many cases have ended as the last check left unfinished; a case that ends during the check cuts the next.
      await clock.sleep(waitMs, wakeUp.signal);
      wakeUp = new AbortController();
      if (finished()) return;
      const { checkRun } = await reducerCode();
      const action = await checkRun(reducer, { kind: 'check', run_id: runId, attempt });
      ended = endOf(action, batch);
      if (ended !== undefined) return;
      if (action.kind !== 'wait') return;
      followProgress(action, countdown, options.tracker, batch);
      attempt = action.attempt;
      waitMs = action.seconds * 1000;
    }
  };

  const judged = judgeDeliveries(infrastructure, options);
  const onOutcome = (outcome: CaseOutcome): void => {
    if (outcome.runId !== runId) return;
    if (outcome.kind === 'done') options.tracker.caseDone();
    else if (outcome.kind === 'waiting') options.tracker.caseWaiting();
    else options.tracker.caseRetried();
    if (outcome.kind === 'done' || outcome.kind === 'waiting') caseEnded(outcome.runId);
  };
  const control: ControlDependencies = { ...reducer, cases: infrastructure.cases, now: options.now };
  // A heartbeat that fails (the message came back meanwhile) is no error of the run: the case's deterministic keys keep it once.
  const shared = { onHandlerError, visibilityTimeoutSeconds: infrastructure.visibilityTimeoutSeconds, onHeartbeatError: () => {} };
  const consumers: QueueConsumer[] = [
    {
      queue: infrastructure.cases,
      handle: async (messages) => {
        const batch = judged(messages.map(deliveryOf));
        judging.add(batch);
        try {
          const again = new Set<string>();
          for (const delivered of await batch) {
            if (delivered.kind === 'evaluated') onOutcome(delivered.outcome);
            if (comesBack(delivered)) again.add(delivered.messageId);
          }
          return again;
        } finally {
          judging.delete(batch);
        }
      },
      batchSize: 10,
      // On threads, a batch waits for each thread beside the one it judges: a thread that finishes takes the next at once.
      concurrency: Math.max(1, Math.ceil(options.concurrency / 4), 2 * (threads?.size ?? 0)),
      ...shared,
    },
    {
      queue: infrastructure.deadLetters,
      handle: async (messages) => {
        for (const message of messages) {
          const outcome = await recordFailure(store, message.body, message.receiveCount);
          if (outcome.kind === 'recorded') caseEnded(outcome.runId);
        }
        return new Set();
      },
      batchSize: 10,
      concurrency: 1,
      ...shared,
    },
    {
      queue: infrastructure.control,
      handle: async (messages) => {
        for (const received of messages) {
          const message = readJsonWith(controlMessageSchema, received.body, `control message ${received.messageId}`);
          // This run's checks are this loop's own: their scheduled copies are acknowledged.
          if (message.kind === 'check' && message.run_id === runId) continue;
          const { handleControlMessage, scheduleCheck } = await controlCode();
          const outcome = await handleControlMessage(control, message);
          if (outcome.kind === 'checked' && outcome.action.kind !== 'reported') await scheduleCheck(infrastructure.control, outcome.action);
        }
        return new Set();
      },
      batchSize: 1,
      concurrency: 1,
      ...shared,
    },
  ];

  await Promise.all([
    steer()
      .catch(onHandlerError)
      .finally(() => polls.abort()),
    runConsumers(consumers, finished, { waitSeconds: 1, signal: polls.signal, clock }),
  ]);
  options.tracker.finish();
  if (handlerErrors.length > 0) throw handlerErrors[0] instanceof Error ? handlerErrors[0] : new Error(String(handlerErrors[0]));
  if (ended === undefined) throw new Error('The drive ended without a report');
  return ended;
}

/**
 * The reducer's code (aggregation, statistics, report pages), loaded on the
 * first check rather than before the first judge call.
 */
const reducerCode = () => import('../../shared/reduce/reduce.js');
const controlCode = async () => ({
  ...(await import('../../shared/reduce/control-messages.js')),
  scheduleCheck: (await reducerCode()).scheduleCheck,
});

/** The judge worker's step over a batch of deliveries: on the threads, or here. */
function judgeDeliveries(
  infrastructure: Infrastructure,
  options: DriveOptions,
): (deliveries: readonly CaseDelivery[]) => Promise<readonly DeliveredCase[]> {
  if (options.threads !== undefined) return threadedCaseDelivery(options.threads);
  const dependencies: WorkerDependencies = {
    store: infrastructure.store,
    judgingFor: options.judgingFor,
    defer: deferTo(infrastructure.cases),
  };
  return (deliveries) => deliverCases(dependencies, deliveries);
}

function deliveryOf(message: ReceivedMessage): CaseDelivery {
  return { messageId: message.messageId, body: message.body, receiveCount: message.receiveCount, remainingMs: CASE_TIME_MS };
}

/** Where a check's answer ends the drive: the report written, a run that cannot go on by itself, or jobs submitted under --detach. */
function endOf(action: RunAction, batch: BatchJudgingDrive | undefined): DriveOutcome | undefined {
  if (action.kind === 'reported') return { kind: 'reported', report: action.report };
  if (action.kind === 'stopped') {
    batch?.onStep(action.ending);
    return { kind: 'stopped', ending: action.ending };
  }
  if (action.progress.kind === 'batch' && action.progress.step.kind === 'submitted' && batch?.detach === true) {
    batch.onStep(action.progress.step);
    return { kind: 'detached', step: action.progress.step };
  }
  return undefined;
}

/** What a wait says of the run's cases: how many the countdown waits for, and the batch step on the progress line. */
function followProgress(
  action: Extract<RunAction, { kind: 'wait' }>,
  countdown: FinishedCountdown,
  tracker: Progress,
  batch: BatchJudgingDrive | undefined,
): void {
  const { progress } = action;
  if (progress.kind === 'cases') {
    countdown.checked(progress.total - progress.finished);
    return;
  }
  if (progress.kind !== 'batch') return;
  const { step } = progress;
  batch?.onStep(step);
  if (step.kind === 'judging') countdown.checked(step.unreported);
  else if (step.kind === 'requeued' || (step.kind === 'below-minimum' && step.action === 'online')) {
    tracker.casesRequeued(step.cases);
    countdown.checked(step.cases);
  }
}

/** driveRun for a run that ends with its report: no batch jobs to detach from or to stop on (the tests' drives, a run judged online). */
export async function driveToReport(infrastructure: Infrastructure, runId: string, options: Omit<DriveOptions, 'batch'>): Promise<Report> {
  const outcome = await driveRun(infrastructure, runId, options);
  if (outcome.kind !== 'reported') throw new Error(`The drive of run ${runId} ended ${outcome.kind} without a report`);
  return outcome.report;
}

/** Copies the run's report files from the store to a local folder; returns their paths. */
export async function copyReport(infrastructure: Infrastructure, suite: string, runId: string, outFolder: string): Promise<string[]> {
  const { REPORT_FILES } = await import('../../shared/reduce/reduce.js');
  return copyReportFiles(infrastructure.store, (name) => runKeys.report(suite, runId, name), REPORT_FILES, outFolder);
}
