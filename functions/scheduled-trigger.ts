import type { Context } from 'aws-lambda';
import { z } from 'zod';
import { startScheduledRuns, type ScheduledRunDependencies, type ScheduledRunOutcome } from '../shared/operations/scheduled-runs.js';
import type { HandlerTelemetry } from './handler-context.js';
import { lambdaDependencies } from './lambda-environment.js';

/** What the schedule may send: nothing, or the suites to run instead of the configured ones. */
const scheduleEventSchema = z.object({ suites: z.array(z.string().min(1)).optional() }).loose();

/**
 * Scheduled trigger handler: the nightly schedule's invocation re-runs every
 * configured suite from its stored dataset.
 */
export function createScheduledTriggerHandler(
  dependencies: ScheduledRunDependencies,
  suites: readonly string[],
  telemetry: HandlerTelemetry,
) {
  return async (event: unknown, context?: Context): Promise<ScheduledRunOutcome[]> => {
    const parsed = scheduleEventSchema.parse(event ?? {});
    const timeRemainingMs = context === undefined ? dependencies.timeRemainingMs : () => context.getRemainingTimeInMillis();
    const outcomes = await startScheduledRuns({ ...dependencies, timeRemainingMs }, parsed.suites ?? suites);
    for (const outcome of outcomes) telemetry.logger.info('scheduled run', { ...outcome });
    return outcomes;
  };
}

const suitesSchema = z.string().default('');

let triggerHandler: ReturnType<typeof createScheduledTriggerHandler> | undefined;

/** The Lambda entry point: the suites come from ASSAY_SUITES (comma-separated). */
export const handler = async (event: unknown, context: Context): Promise<ScheduledRunOutcome[]> => {
  const dependencies = await lambdaDependencies();
  const suites = suitesSchema
    .parse(process.env.ASSAY_SUITES)
    .split(',')
    .map((suite) => suite.trim())
    .filter(Boolean);
  triggerHandler ??= createScheduledTriggerHandler({ ...dependencies, now: () => new Date() }, suites, dependencies.telemetry);
  return triggerHandler(event, context);
};
