import type { SQSEvent } from 'aws-lambda';
import { checkRun, type ReduceOutcome, type ReducerDependencies } from '../shared/pipeline/reduce.js';
import { checkMessageSchema } from '../shared/schema/pipeline-messages.js';
import type { HandlerTelemetry } from './handler-context.js';

/**
 * Reducer handler: check messages from the control queue. Each check either
 * schedules the next one or writes the run's report; both are idempotent.
 */
export function createReducerHandler(dependencies: ReducerDependencies, telemetry: HandlerTelemetry) {
  return async (event: SQSEvent): Promise<ReduceOutcome[]> => {
    const outcomes: ReduceOutcome[] = [];
    for (const record of event.Records) {
      const outcome = await checkRun(dependencies, checkMessageSchema.parse(JSON.parse(record.body)));
      if (outcome.kind === 'reported') {
        telemetry.logger.info('run reported', { run_id: outcome.runId, keys: outcome.keys });
        telemetry.metrics?.addMetric('RunsReported', 'Count', 1);
      } else {
        telemetry.logger.info('run in progress', { ...outcome });
      }
      outcomes.push(outcome);
    }
    telemetry.metrics?.publishStoredMetrics();
    return outcomes;
  };
}
