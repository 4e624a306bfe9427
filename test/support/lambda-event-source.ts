import type { Context, S3Event, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { FullBatchFailureError } from '@aws-lambda-powertools/batch';
import type { ReceivedMessage, WorkQueue } from '../../shared/ports/work-queue.js';

/**
 * Lambda's side of the deployed stack, for the tests of functions/: what
 * Lambda's SQS event source mapping and S3 notifications do on AWS, done
 * here so the Lambda handlers run over the in-process queue or an SQS
 * emulator. It receives up to `batchSize` messages, hands them to the
 * handler as a real SQSEvent, deletes the records that succeeded, and
 * leaves the ones in batchItemFailures (or the whole batch, when the handler
 * throws) to come back after the visibility timeout; the queue's redrive
 * policy moves them to the dead-letter queue after maxReceiveCount. The
 * product's own local driver (cli/run/drive-run.ts) takes plain messages
 * (shared/ports/queue-consumer.ts): these shapes are functions/' alone.
 */
export type SqsHandler = (event: SQSEvent, context: Context) => Promise<SQSBatchResponse | unknown>;

export interface EventSourceMapping {
  readonly queue: WorkQueue;
  readonly handler: SqsHandler;
  readonly batchSize: number;
  /** Batches handled at once, as Lambda's maximum concurrency. */
  readonly concurrency: number;
  /** Told when the handler throws (a bug, or a batch where every record failed). */
  readonly onHandlerError?: (error: unknown) => void;
  /**
   * The queue's visibility timeout. With it, messages whose batch is still
   * being handled are hidden again every third of it (a heartbeat), so a
   * slow judge never gets its case delivered to a second worker.
   */
  readonly visibilityTimeoutSeconds?: number;
  /** Told when a heartbeat could not extend a message's visibility (the message may come back early). */
  readonly onHeartbeatError?: (error: unknown) => void;
}

const REGION = 'local';

/** One poll of one mapping: returns how many messages were handled. */
export async function pollOnce(mapping: EventSourceMapping, waitSeconds: number, signal?: AbortSignal): Promise<number> {
  const messages = await mapping.queue.receive({
    maxMessages: mapping.batchSize,
    waitSeconds,
    ...(signal === undefined ? {} : { signal }),
  });
  if (messages.length === 0) return 0;
  const event: SQSEvent = { Records: messages.map((message) => sqsRecord(mapping.queue.name, message)) };
  let failedIds: Set<string>;
  const heartbeat = startHeartbeat(mapping, messages);
  try {
    const response = (await mapping.handler(event, lambdaContext(mapping.queue.name))) as Partial<SQSBatchResponse> | undefined;
    failedIds = new Set((response?.batchItemFailures ?? []).map((failure) => failure.itemIdentifier));
  } catch (error) {
    // Powertools throws when every record failed; any other throw also fails the whole batch, as on Lambda.
    if (!(error instanceof FullBatchFailureError)) mapping.onHandlerError?.(error);
    failedIds = new Set(messages.map((message) => message.messageId));
  } finally {
    await heartbeat.stop();
  }
  for (const message of messages) {
    if (!failedIds.has(message.messageId)) await mapping.queue.delete(message.receiptHandle);
  }
  return messages.length;
}

/**
 * Extends the visibility of a batch's messages while its handler runs, as a
 * worker should for work that may outlast the timeout (SQS's advice; on
 * Lambda the queue's timeout is set to six times the function's instead).
 */
function startHeartbeat(mapping: EventSourceMapping, messages: readonly ReceivedMessage[]): { stop(): Promise<void> } {
  const timeout = mapping.visibilityTimeoutSeconds;
  if (timeout === undefined) return { stop: async () => {} };
  let beating: Promise<void> = Promise.resolve();
  const timer = setInterval(
    () => {
      beating = beating.then(async () => {
        for (const message of messages) {
          await mapping.queue.changeVisibility(message.receiptHandle, timeout).catch((error: unknown) => mapping.onHeartbeatError?.(error));
        }
      });
    },
    (timeout * 1000) / 3,
  );
  return {
    async stop() {
      clearInterval(timer);
      await beating;
    },
  };
}

/**
 * Polls every mapping until `finished()` says so. Each mapping runs up to its
 * concurrency of batches at once; an empty receive long-polls for
 * `waitSeconds`, so an idle loop costs nothing. Aborting `signal` when the
 * work is finished ends the long polls in progress, instead of waiting them out.
 */
export async function runEventSources(
  mappings: readonly EventSourceMapping[],
  finished: () => boolean,
  waitSeconds = 1,
  signal?: AbortSignal,
): Promise<void> {
  const lanes = mappings.flatMap((mapping) => Array.from({ length: mapping.concurrency }, () => mapping));
  await Promise.all(
    lanes.map(async (mapping) => {
      while (!finished()) await pollOnce(mapping, waitSeconds, signal);
    }),
  );
}

function sqsRecord(queueName: string, message: ReceivedMessage): SQSRecord {
  return {
    messageId: message.messageId,
    receiptHandle: message.receiptHandle,
    body: message.body,
    attributes: {
      ApproximateReceiveCount: String(message.receiveCount),
      SentTimestamp: String(message.sentTimestamp),
      SenderId: 'assay-local',
      ApproximateFirstReceiveTimestamp: String(message.sentTimestamp),
    },
    messageAttributes: {},
    md5OfBody: '',
    eventSource: 'aws:sqs',
    eventSourceARN: `arn:aws:sqs:${REGION}:000000000000:${queueName}`,
    awsRegion: REGION,
  };
}

/** An S3 ObjectCreated event for one object, as S3 notifications deliver it. */
export function s3ObjectCreatedEvent(bucket: string, key: string, etag: string, size: number): S3Event {
  return {
    Records: [
      {
        eventVersion: '2.1',
        eventSource: 'aws:s3',
        awsRegion: REGION,
        eventTime: new Date(0).toISOString(),
        eventName: 'ObjectCreated:Put',
        userIdentity: { principalId: 'assay-local' },
        requestParameters: { sourceIPAddress: '127.0.0.1' },
        responseElements: { 'x-amz-request-id': 'local', 'x-amz-id-2': 'local' },
        s3: {
          s3SchemaVersion: '1.0',
          configurationId: 'assay-datasets',
          bucket: { name: bucket, ownerIdentity: { principalId: 'assay-local' }, arn: `arn:aws:s3:::${bucket}` },
          object: { key: encodeURIComponent(key).replace(/%2F/g, '/'), size, eTag: etag, sequencer: '0' },
        },
      },
    ],
  };
}

/** A Lambda context for a handler run outside Lambda: the deployed function's names, and a full 15 minutes left. */
export function lambdaContext(name: string): Context {
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName: `assay-${name}`,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:${REGION}:000000000000:function:assay-${name}`,
    memoryLimitInMB: '1024',
    awsRequestId: 'local',
    logGroupName: `/aws/lambda/assay-${name}`,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => 900_000,
    done: () => {},
    fail: () => {},
    succeed: () => {},
  };
}
