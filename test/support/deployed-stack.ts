import type { Context } from 'aws-lambda';
import { createHash } from 'node:crypto';
import { GetQueueUrlCommand } from '@aws-sdk/client-sqs';
import { handler as recordFailure } from '../../functions/failure-recorder.js';
import { handler as ingest } from '../../functions/ingest.js';
import { handler as judgeCases } from '../../functions/judge-worker.js';
import { handler as reduce } from '../../functions/reducer.js';
import { createAwsClients, ensureAwsResources } from '../../shared/ports/aws-clients.js';
import { runEventSources, s3ObjectCreatedEvent } from './lambda-event-source.js';
import { S3Store } from '../../shared/ports/s3-store.js';
import type { ObjectStore } from '../../shared/ports/object-store.js';
import { startFauxqs } from './fauxqs.js';

/**
 * A deployed stack on fauxqs: its bucket and queues, and the Lambda handlers
 * run in this process by the local event source, configured through the
 * environment as the stack configures them. fauxqs delivers no S3
 * notifications, so `process` hands the ingest handler the event S3 would send
 * for an uploaded object.
 */
export interface DeployedStack {
  readonly endpoint: string;
  readonly bucket: string;
  /**
   * What the functions do after an upload of `key`: ingest on its event (once
   * the object is in the bucket: an upload may still be on its way), then the
   * queues' consumers until a report. The run id started, or '' when ingest
   * started none.
   */
  process(key: string): Promise<string>;
  /** Stops the emulator and gives the environment back. */
  close(): Promise<void>;
}

const context = { getRemainingTimeInMillis: () => 900_000 } as Context;

/**
 * The queues hide a received message this long; the event source extends it
 * while a handler still runs, as Lambda's does by setting the queue's timeout
 * to six times the function's: a handler slowed by a busy machine never has
 * its messages delivered again, and counted again, while it works on them.
 */
const VISIBILITY_TIMEOUT_SECONDS = 2;

export async function startDeployedStack(bucket: string): Promise<DeployedStack> {
  const fauxqs = await startFauxqs();
  const clients = createAwsClients({ endpoint: fauxqs.endpoint });
  const resources = await ensureAwsResources(clients, {
    bucket,
    casesQueue: 'cases',
    deadLetterQueue: 'cases-dlq',
    controlQueue: 'control',
    maxReceiveCount: 3,
    visibilityTimeoutSeconds: VISIBILITY_TIMEOUT_SECONDS,
  });
  const url = async (name: string) => (await clients.sqs.send(new GetQueueUrlCommand({ QueueName: name }))).QueueUrl ?? '';
  const store = new S3Store(clients.s3, bucket);
  const savedEnvironment = { ...process.env };
  Object.assign(process.env, {
    ASSAY_BUCKET: bucket,
    ASSAY_CASES_QUEUE_URL: await url('cases'),
    ASSAY_CONTROL_QUEUE_URL: await url('control'),
    ASSAY_AWS_ENDPOINT: fauxqs.endpoint,
    POWERTOOLS_LOG_LEVEL: 'ERROR',
    POWERTOOLS_METRICS_DISABLED: 'true',
  });
  delete process.env.ASSAY_JUDGE_SECRET_ARN;
  return {
    endpoint: fauxqs.endpoint,
    bucket,
    async process(key) {
      const body = await objectOf(store, key);
      const etag = createHash('md5').update(body).digest('hex');
      const [outcome] = await ingest(s3ObjectCreatedEvent(bucket, key, `"${etag}"`, 0), context);
      let reported = false;
      const visibilityTimeoutSeconds = VISIBILITY_TIMEOUT_SECONDS;
      await runEventSources(
        [
          { queue: resources.cases, handler: judgeCases, batchSize: 10, concurrency: 2, visibilityTimeoutSeconds },
          { queue: resources.deadLetters, handler: recordFailure, batchSize: 10, concurrency: 1, visibilityTimeoutSeconds },
          {
            queue: resources.control,
            handler: async (event, lambdaContext) => {
              reported ||= (await reduce(event, lambdaContext)).some(
                (result) => result.kind === 'checked' && result.action.kind === 'reported',
              );
            },
            batchSize: 1,
            concurrency: 1,
            visibilityTimeoutSeconds,
          },
        ],
        () => reported,
      );
      return outcome?.kind === 'started' ? outcome.runId : '';
    },
    async close() {
      process.env = savedEnvironment;
      clients.s3.destroy();
      clients.sqs.destroy();
      await fauxqs.close();
    },
  };
}

async function objectOf(store: ObjectStore, key: string): Promise<Uint8Array> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const body = await store.get(key);
    if (body !== undefined) return body;
    if (Date.now() > deadline) throw new Error(`${key} did not arrive in the bucket within 30 s`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
