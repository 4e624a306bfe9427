import type { Context, S3Event } from 'aws-lambda';
import { z } from 'zod';
import { ingestDataset, type IngestDependencies, type IngestOutcome } from '../shared/ingest/ingest.js';
import type { RunConfig } from '../shared/config/index.js';
import { isCollectionMemberKey } from '../shared/schema/collection-manifest.js';
import type { HandlerTelemetry } from './handler-context.js';

/** The part of an S3 event notification ingest reads; anything else in the event is ignored. */
const s3EventSchema = z.object({
  Records: z.array(
    z.object({
      eventName: z.string(),
      s3: z.object({
        bucket: z.object({ name: z.string() }),
        object: z.object({ key: z.string(), eTag: z.string().optional() }),
      }),
    }),
  ),
});

export interface IngestHandlerDependencies extends IngestDependencies {
  /** The run config and judge summary for a suite: from the CLI, or the suite's config object in the bucket. */
  configFor(suite: string): Promise<{ config: RunConfig; judgeSummary: string }>;
  readonly trigger: string;
}

/**
 * Ingest handler: one S3 ObjectCreated event per uploaded dataset under
 * `datasets/<suite>/<file>`, or per TREC collection manifest
 * (`datasets/<suite>/<name>.trec/collection.json`; the collection's other
 * files are ignored). Parses the event, starts a run per object, and
 * returns the outcomes (the local event source and the tests read them).
 */
export function createIngestHandler(dependencies: IngestHandlerDependencies, telemetry: HandlerTelemetry) {
  return async (event: S3Event, context?: Context): Promise<IngestOutcome[]> => {
    const parsed = s3EventSchema.parse(event);
    const outcomes: IngestOutcome[] = [];
    for (const record of parsed.Records) {
      if (!record.eventName.startsWith('ObjectCreated')) continue;
      const key = decodeURIComponent(record.s3.object.key.replace(/\+/g, ' '));
      // The files of a TREC collection start nothing: its manifest, uploaded last, starts the run.
      if (isCollectionMemberKey(key)) continue;
      const suite = suiteOf(key);
      const { config, judgeSummary } = await dependencies.configFor(suite);
      const timeRemainingMs = context === undefined ? dependencies.timeRemainingMs : () => context.getRemainingTimeInMillis();
      const outcome = await ingestDataset(
        { ...dependencies, timeRemainingMs },
        {
          datasetKey: key,
          etag: (record.s3.object.eTag ?? '').replace(/"/g, ''),
          suite,
          trigger: dependencies.trigger,
          config,
          judgeSummary,
        },
      );
      telemetry.logger.info('ingest', { key, ...outcome });
      telemetry.metrics?.addMetric('InputErrors', 'Count', outcome.kind === 'started' ? outcome.inputErrors : 0);
      outcomes.push(outcome);
    }
    telemetry.metrics?.publishStoredMetrics();
    return outcomes;
  };
}

/** `datasets/<suite>/<file>` -> suite; anything else is the `default` suite. */
export function suiteOf(key: string): string {
  const match = /^datasets\/([^/]+)\/.+/.exec(key);
  return match?.[1] ?? 'default';
}

let ingestHandler: ReturnType<typeof createIngestHandler> | undefined;

/**
 * The Lambda entry point, wired from the environment on first use. The AWS
 * wiring is imported here, so a test that builds the handler from the
 * factory above, over local adapters, never loads the AWS SDK.
 */
export const handler = async (event: S3Event, context: Context): Promise<IngestOutcome[]> => {
  const { lambdaDependencies } = await import('./lambda-environment.js');
  const dependencies = await lambdaDependencies();
  ingestHandler ??= createIngestHandler({ ...dependencies, now: () => new Date(), trigger: 'upload' }, dependencies.telemetry);
  return ingestHandler(event, context);
};
