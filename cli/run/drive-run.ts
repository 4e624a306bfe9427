import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { createFailureRecorderHandler } from '../../functions/failure-recorder.js';
import { quietTelemetry } from '../../functions/handler-context.js';
import { createJudgeWorkerHandler } from '../../functions/judge-worker.js';
import { createReducerHandler } from '../../functions/reducer.js';
import type { Judging } from '../../shared/pipeline/evaluate-case.js';
import { REPORT_FILES, type ReduceOutcome } from '../../shared/pipeline/reduce.js';
import { runKeys } from '../../shared/pipeline/run-identity.js';
import { runEventSources } from '../../shared/ports/lambda-event-source.js';
import { sendAll } from '../../shared/ports/work-queue.js';
import type { CheckMessage } from '../../shared/schema/pipeline-messages.js';
import type { Report } from '../../shared/schema/report.js';
import type { Infrastructure } from './infrastructure.js';
import type { Progress } from './progress.js';

export interface DriveOptions {
  /** Cases expected to finish; when they all have, the reducer is asked at once rather than at its next check. */
  readonly expectedCases: number;
  readonly judging: Judging;
  readonly tracker: Progress;
  readonly now: () => Date;
  /** Judge calls in flight; a quarter of it is the number of case batches in flight. */
  readonly concurrency: number;
}

/**
 * Drives the judge worker, failure recorder and reducer handlers from their
 * queues, as Lambda's event source mappings would, until the reducer has
 * written the report of `runId`. A handler that throws outside a record (a
 * bug) stops the loop and is rethrown, instead of spinning forever.
 */
export async function driveRun(infrastructure: Infrastructure, runId: string, options: DriveOptions): Promise<Report> {
  const telemetry = quietTelemetry();
  let reported: Extract<ReduceOutcome, { kind: 'reported' }> | undefined;
  const finished = new Set<string>();
  let nudged = false;
  const caseFinished = async (caseId: string): Promise<void> => {
    finished.add(caseId);
    if (nudged || finished.size < options.expectedCases) return;
    nudged = true;
    // The reducer backs off between checks; a local run knows when its last case is in.
    const check: CheckMessage = { kind: 'check', run_id: runId, attempt: 0 };
    await sendAll(infrastructure.control, [{ id: 'check', body: JSON.stringify(check) }]);
  };
  const worker = createJudgeWorkerHandler({ store: infrastructure.store, judgingFor: () => options.judging }, telemetry, (outcome) => {
    if (outcome.kind === 'done') {
      options.tracker.caseDone();
      void caseFinished(outcome.caseId);
    } else {
      options.tracker.caseRetried();
    }
  });
  const recordFailures = createFailureRecorderHandler(infrastructure.store, telemetry);
  const recorder = async (event: Parameters<typeof recordFailures>[0]) => {
    const outcomes = await recordFailures(event);
    for (const outcome of outcomes) if (outcome.kind === 'recorded') await caseFinished(outcome.caseId);
    return outcomes;
  };
  const reducer = createReducerHandler({ store: infrastructure.store, control: infrastructure.control, cases: infrastructure.cases, now: options.now }, telemetry);
  const handlerErrors: unknown[] = [];
  const onHandlerError = (error: unknown): void => void handlerErrors.push(error);
  await runEventSources(
    [
      { queue: infrastructure.cases, handler: worker, batchSize: 10, concurrency: Math.max(1, Math.ceil(options.concurrency / 4)), onHandlerError },
      { queue: infrastructure.deadLetters, handler: recorder, batchSize: 10, concurrency: 1, onHandlerError },
      {
        queue: infrastructure.control,
        handler: async (event) => {
          const outcomes = await reducer(event);
          reported ??= outcomes.find(
            (candidate): candidate is Extract<ReduceOutcome, { kind: 'reported' }> => candidate.kind === 'reported' && candidate.runId === runId,
          );
        },
        batchSize: 1,
        concurrency: 1,
        onHandlerError,
      },
    ],
    () => reported !== undefined || handlerErrors.length > 0,
  );
  options.tracker.finish();
  if (reported === undefined) throw handlerErrors[0] instanceof Error ? handlerErrors[0] : new Error(String(handlerErrors[0]));
  return reported.report;
}

/** Copies the run's report files from the store to a local folder; returns their paths. */
export async function copyReport(infrastructure: Infrastructure, suite: string, runId: string, outFolder: string): Promise<string[]> {
  await mkdir(outFolder, { recursive: true });
  const files: string[] = [];
  for (const name of REPORT_FILES) {
    const path = join(outFolder, name);
    if (await infrastructure.store.download(runKeys.report(suite, runId, name), path)) files.push(path);
  }
  return files;
}
