import type { SQSEvent } from 'aws-lambda';
import type { ObjectStore } from '../shared/ports/object-store.js';
import { recordFailure, type FailureOutcome } from '../shared/worker/record-failure.js';
import type { HandlerTelemetry } from './handler-context.js';

/**
 * Failure recorder handler: the dead-letter queue's messages become
 * `runs/<run>/failures/<shard>/<case>.json`. Recording is idempotent, so a record
 * failing here is simply delivered again.
 */
export function createFailureRecorderHandler(store: ObjectStore, telemetry: HandlerTelemetry) {
  return async (event: SQSEvent): Promise<FailureOutcome[]> => {
    const outcomes: FailureOutcome[] = [];
    for (const record of event.Records) {
      const outcome = await recordFailure(store, record.body, Number(record.attributes.ApproximateReceiveCount ?? '0'));
      telemetry.logger.warn('dead-lettered message', { ...outcome });
      telemetry.metrics?.addMetric('CasesFailed', 'Count', outcome.kind === 'recorded' ? 1 : 0);
      outcomes.push(outcome);
    }
    telemetry.metrics?.publishStoredMetrics();
    return outcomes;
  };
}

let recorderHandler: ReturnType<typeof createFailureRecorderHandler> | undefined;

/**
 * The Lambda entry point, wired from the environment on first use. The AWS
 * wiring is imported here, so a test that builds the handler from the
 * factory above, over local adapters, never loads the AWS SDK.
 */
export const handler = async (event: SQSEvent): Promise<FailureOutcome[]> => {
  const { lambdaDependencies } = await import('./lambda-environment.js');
  const dependencies = await lambdaDependencies();
  recorderHandler ??= createFailureRecorderHandler(dependencies.store, dependencies.telemetry);
  return recorderHandler(event);
};
