import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { deliverCase } from '../shared/worker/case-delivery.js';
import type { CaseOutcome, WorkerDependencies } from '../shared/worker/evaluate-case.js';
import type { HandlerTelemetry } from './handler-context.js';

/** Marks a record to be delivered again: a judge failure that may pass on a later try. */
export class RetryLaterError extends Error {
  override readonly name = 'RetryLaterError';
}

/** Marks a record that failed for another reason (already logged and recorded): delivered again, then dead-lettered. */
export class CaseFailedError extends Error {
  override readonly name = 'CaseFailedError';
}

/**
 * Judge worker handler: an SQS batch of case messages. Each record is parsed
 * and judged on its own; a record that fails (a transient judge failure, any
 * other error, or a message that does not parse) is reported in
 * batchItemFailures, so only it comes back, and after maxReceiveCount it goes
 * to the dead-letter queue. Every failure is logged with its reason: the
 * batch processor keeps a record's error to itself.
 */
export function createJudgeWorkerHandler(
  dependencies: WorkerDependencies,
  telemetry: HandlerTelemetry,
  onOutcome: (outcome: CaseOutcome) => void = () => {},
) {
  const recordHandler = async (record: SQSRecord, context?: Context): Promise<void> => {
    const receiveCount = Number(record.attributes.ApproximateReceiveCount ?? '1');
    const remainingMs = context?.getRemainingTimeInMillis();
    const delivered = await deliverCase(dependencies, {
      messageId: record.messageId,
      body: record.body,
      receiveCount,
      ...(remainingMs === undefined ? {} : { remainingMs }),
    });
    if (delivered.kind === 'unreadable') {
      telemetry.logger.error('not a case message', { message_id: record.messageId, error: delivered.error, receive_count: receiveCount });
      throw new CaseFailedError(delivered.error);
    }
    const { outcome } = delivered;
    onOutcome(outcome);
    if (outcome.kind === 'deferred') {
      // Sent again as a new message: this delivery ends as done, so the receive count does not run out while the rate limit holds.
      telemetry.logger.info('case deferred by the judge rate limit', {
        run_id: outcome.runId,
        case_id: outcome.caseId,
        error: outcome.error,
        delay_seconds: outcome.delaySeconds,
      });
      return;
    }
    if (outcome.kind === 'waiting') {
      // Its judgments wait for batch jobs: this delivery is over, and the case is sent again once they have answered.
      telemetry.logger.info('case waits for batch answers', { run_id: outcome.runId, case_id: outcome.caseId, requests: outcome.requests });
      return;
    }
    if (outcome.kind === 'retry') {
      telemetry.logger.warn('case will be retried', {
        run_id: outcome.runId,
        case_id: outcome.caseId,
        error: outcome.error,
        receive_count: receiveCount,
      });
      throw new RetryLaterError(outcome.error);
    }
    if (outcome.kind === 'failed') {
      telemetry.logger.error('case failed', {
        run_id: outcome.runId,
        case_id: outcome.caseId,
        error: outcome.error,
        receive_count: receiveCount,
      });
      throw new CaseFailedError(outcome.error);
    }
    telemetry.metrics?.addMetric('CasesEvaluated', 'Count', 1);
  };
  return async (event: SQSEvent, context: Context): Promise<SQSBatchResponse> => {
    try {
      // A processor per invocation: it keeps the batch's records and failures, and batches may run at once.
      return await processPartialResponse(event, recordHandler, new BatchProcessor(EventType.SQS), { context, processInParallel: true });
    } finally {
      telemetry.metrics?.publishStoredMetrics();
    }
  };
}

let workerHandler: ReturnType<typeof createJudgeWorkerHandler> | undefined;

/**
 * The Lambda entry point, wired from the environment on first use. The AWS
 * wiring is imported here, so a test that builds the handler from the
 * factory above, over local adapters, never loads the AWS SDK.
 */
export const handler = async (event: SQSEvent, context: Context): Promise<SQSBatchResponse> => {
  const { judgeWorkerDependencies } = await import('./judge-worker-dependencies.js');
  const dependencies = await judgeWorkerDependencies();
  workerHandler ??= createJudgeWorkerHandler(dependencies, dependencies.telemetry);
  return workerHandler(event, context);
};
