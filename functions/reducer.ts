import type { Context, SQSEvent } from 'aws-lambda';
import { checkRun, type ReduceOutcome, type ReducerDependencies } from '../shared/reduce/reduce.js';
import { reduceRange } from '../shared/reduce/split-reduce.js';
import type { WorkQueue } from '../shared/ports/work-queue.js';
import { readJsonWith } from '../shared/schema/parse-json-with.js';
import { controlMessageSchema } from '../shared/schema/pipeline-messages.js';
import type { HandlerTelemetry } from './handler-context.js';
import { createContinueIngestHandler } from './ingest.js';

export interface ReducerHandlerDependencies extends ReducerDependencies {
  /** The cases queue, for resuming an ingest that stopped at a checkpoint. */
  readonly cases: WorkQueue;
}

/**
 * Reducer handler: the control queue's messages. A check either schedules the
 * next one (a batch-judged run's check submits, polls or collects its batch
 * jobs first: shared/batch/) or writes the run's report (for a large run, after it fanned the
 * reduce out as reduce-range messages, each aggregating one range of the run);
 * a continue-ingest message goes to ingest's own handler (ingest.ts), which
 * resumes sending a large run's case messages from its checkpoint. All are
 * idempotent.
 */
export function createReducerHandler(dependencies: ReducerHandlerDependencies, telemetry: HandlerTelemetry) {
  const continueIngest = createContinueIngestHandler(dependencies, telemetry);
  return async (event: SQSEvent, context?: Context): Promise<ReduceOutcome[]> => {
    const outcomes: ReduceOutcome[] = [];
    for (const record of event.Records) {
      const message = readJsonWith(controlMessageSchema, record.body, `control message ${record.messageId}`);
      if (message.kind === 'continue-ingest') {
        await continueIngest(message, context);
        continue;
      }
      if (message.kind === 'reduce-range') {
        const reduced = await reduceRange(dependencies.store, message);
        telemetry.logger.info('range reduced', { run_id: message.run_id, range: message.range, cases: reduced.cases });
        continue;
      }
      const outcome = await checkRun(dependencies, message);
      if (outcome.kind === 'reported') {
        telemetry.logger.info('run reported', { run_id: outcome.runId, keys: outcome.keys });
        telemetry.metrics?.addMetric('RunsReported', 'Count', 1);
        // The regression alarm watches this: metrics significantly worse than the suite's baseline.
        telemetry.metrics?.addMetric('Regressions', 'Count', outcome.report.comparison?.regressions.length ?? 0);
        // And this: cases that had not ended when the run's deadline passed (a batch-judged run's deadline spans its jobs' window).
        telemetry.metrics?.addMetric('MissingCases', 'Count', outcome.report.cases.missing);
      } else {
        telemetry.logger.info('run in progress', { ...outcome });
      }
      outcomes.push(outcome);
    }
    telemetry.metrics?.publishStoredMetrics();
    return outcomes;
  };
}

let reducerHandler: ReturnType<typeof createReducerHandler> | undefined;

/**
 * The Lambda entry point, wired from the environment on first use. The AWS
 * wiring is imported here, so the CLI, which builds its handler from the
 * factory above, never loads the AWS SDK for an embedded run.
 */
export const handler = async (event: SQSEvent, context: Context): Promise<ReduceOutcome[]> => {
  const { lambdaDependencies } = await import('./lambda-environment.js');
  const { lambdaReducerBatch } = await import('./reducer-batch.js');
  const dependencies = await lambdaDependencies();
  reducerHandler ??= createReducerHandler(
    { ...dependencies, now: () => new Date(), batch: lambdaReducerBatch(dependencies) },
    dependencies.telemetry,
  );
  return reducerHandler(event, context);
};
