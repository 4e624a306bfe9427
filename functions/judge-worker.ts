import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { evaluateCaseMessage, type CaseOutcome, type WorkerDependencies } from '../shared/pipeline/evaluate-case.js';
import { caseMessageSchema } from '../shared/schema/pipeline-messages.js';
import type { HandlerTelemetry } from './handler-context.js';

/** Marks a record to be delivered again: a judge failure that may pass on a later try. */
export class RetryLaterError extends Error {
  override readonly name = 'RetryLaterError';
}

/**
 * Judge worker handler: an SQS batch of case messages. Each record is parsed
 * and judged on its own; a record that fails (a transient judge failure, or
 * a message that does not parse) is reported in batchItemFailures, so only it
 * comes back, and after maxReceiveCount it goes to the dead-letter queue.
 */
export function createJudgeWorkerHandler(
  dependencies: WorkerDependencies,
  telemetry: HandlerTelemetry,
  onOutcome: (outcome: CaseOutcome) => void = () => {},
) {
  const recordHandler = async (record: SQSRecord, context?: Context): Promise<void> => {
    const message = caseMessageSchema.parse(JSON.parse(record.body));
    const receiveCount = Number(record.attributes.ApproximateReceiveCount ?? '1');
    const remainingMs = context?.getRemainingTimeInMillis();
    const outcome = await evaluateCaseMessage(dependencies, message, { messageId: record.messageId, receiveCount, ...(remainingMs === undefined ? {} : { remainingMs }) });
    onOutcome(outcome);
    if (outcome.kind === 'retry') {
      telemetry.logger.warn('case will be retried', { case_id: outcome.caseId, error: outcome.error, receive_count: receiveCount });
      throw new RetryLaterError(outcome.error);
    }
    telemetry.metrics?.addMetric('CasesEvaluated', 'Count', 1);
  };
  return async (event: SQSEvent, context: Context): Promise<SQSBatchResponse> => {
    try {
      // A processor per invocation: it keeps the batch's records and failures, and batches may run at once.
      return await processPartialResponse(event, recordHandler, new BatchProcessor(EventType.SQS), { context });
    } finally {
      telemetry.metrics?.publishStoredMetrics();
    }
  };
}

let workerHandler: ReturnType<typeof createJudgeWorkerHandler> | undefined;

/**
 * The Lambda entry point, wired from the environment on first use. The AWS
 * wiring is imported here, so the CLI, which builds its handler from the
 * factory above, never loads the AWS SDK for an embedded run.
 */
export const handler = async (event: SQSEvent, context: Context): Promise<SQSBatchResponse> => {
  const { judgeWorkerDependencies } = await import('./judge-worker-dependencies.js');
  const dependencies = await judgeWorkerDependencies();
  workerHandler ??= createJudgeWorkerHandler(dependencies, dependencies.telemetry);
  return workerHandler(event, context);
};
