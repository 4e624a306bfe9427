import type { Context, SQSEvent } from 'aws-lambda';
import { handleControlMessage, type ControlDependencies, type ControlOutcome } from '../shared/reduce/control-messages.js';
import { scheduleCheck } from '../shared/reduce/reduce.js';
import { readJsonWith } from '../shared/schema/parse-json-with.js';
import { controlMessageSchema } from '../shared/schema/pipeline-messages.js';
import type { HandlerTelemetry } from './handler-context.js';
import { reportedRunMetrics } from './reported-run-metrics.js';

/**
 * Reducer handler: the control queue's messages (shared/reduce/control-messages.ts).
 * A check's answer is the run's next action: a wait becomes the next check,
 * a delayed message on the control queue; a run that cannot go on by itself
 * (a batch job that failed validation, a provider that stopped answering)
 * is logged as an error and looked at again later, since nobody watches a
 * deployed run: at its deadline it is reported, its unfinished cases
 * missing, and the MissingCases alarm fires. A report moves the metrics the
 * alarms watch. All is idempotent.
 */
export function createReducerHandler(dependencies: ControlDependencies, telemetry: HandlerTelemetry) {
  return async (event: SQSEvent, context?: Context): Promise<ControlOutcome[]> => {
    const outcomes: ControlOutcome[] = [];
    for (const record of event.Records) {
      const message = readJsonWith(controlMessageSchema, record.body, `control message ${record.messageId}`);
      const timeRemainingMs = context === undefined ? dependencies.timeRemainingMs : () => context.getRemainingTimeInMillis();
      const outcome = await handleControlMessage(
        { ...dependencies, ...(timeRemainingMs === undefined ? {} : { timeRemainingMs }) },
        message,
      );
      outcomes.push(outcome);
      if (outcome.kind === 'range-reduced') {
        telemetry.logger.info('range reduced', { run_id: outcome.runId, range: outcome.range, cases: outcome.cases });
        continue;
      }
      if (outcome.kind === 'ingest-continued') {
        telemetry.logger.info('ingest continued', { run_id: outcome.runId, from: outcome.from });
        continue;
      }
      const { action } = outcome;
      if (action.kind === 'reported') {
        telemetry.logger.info('run reported', { run_id: action.runId, keys: action.keys });
        // The alarms watch these (functions/reported-run-metrics.ts).
        for (const [name, count] of reportedRunMetrics(action.report)) telemetry.metrics?.addMetric(name, 'Count', count);
        continue;
      }
      if (action.kind === 'stopped') telemetry.logger.error('run cannot go on by itself', { run_id: action.runId, ending: action.ending });
      else telemetry.logger.info('run in progress', { run_id: action.runId, progress: action.progress });
      await scheduleCheck(dependencies.control, action);
    }
    telemetry.metrics?.publishStoredMetrics();
    return outcomes;
  };
}

let reducerHandler: ReturnType<typeof createReducerHandler> | undefined;

/**
 * The Lambda entry point, wired from the environment on first use. The AWS
 * wiring is imported here, so a test that builds the handler from the
 * factory above, over local adapters, never loads the AWS SDK.
 */
export const handler = async (event: SQSEvent, context: Context): Promise<ControlOutcome[]> => {
  const { lambdaDependencies } = await import('./lambda-environment.js');
  const { lambdaBatchJudging } = await import('./reducer-batch-judging.js');
  const dependencies = await lambdaDependencies();
  reducerHandler ??= createReducerHandler(
    { ...dependencies, now: () => new Date(), batch: lambdaBatchJudging(dependencies) },
    dependencies.telemetry,
  );
  return reducerHandler(event, context);
};
