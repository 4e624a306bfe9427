import { type BucketLocationConstraint, CreateBucketCommand, HeadBucketCommand, S3Client, type S3ClientConfig } from '@aws-sdk/client-s3';
import {
  CreateQueueCommand,
  GetQueueAttributesCommand,
  GetQueueUrlCommand,
  QueueNameExists,
  SetQueueAttributesCommand,
  SQSClient,
  type SQSClientConfig,
} from '@aws-sdk/client-sqs';
import { quietNodeVersionNotice } from './aws-node-notice.js';
import { SqsQueue } from './sqs-queue.js';
import { awsEndpointFaultOf } from './aws-endpoint-fault.js';

export interface AwsClientOptions {
  /** An S3/SQS-compatible endpoint (a local emulator, or a gateway); absent: AWS itself. */
  readonly endpoint?: string;
  readonly region?: string;
}

export interface AwsClients {
  readonly s3: S3Client;
  readonly sqs: SQSClient;
  /** The endpoint both talk to (an emulator's); undefined for AWS itself. */
  readonly endpoint?: string;
}

/** Emulators accept any credentials; these are no secret and only ever go to a loopback address. */
const EMULATOR_CREDENTIALS = { accessKeyId: 'test', secretAccessKey: 'test' };
const EMULATOR_REGION = 'us-east-1';

/**
 * The S3 and SQS clients, built once. Credentials come from the SDK's default
 * chain (environment, profile, container or instance role). Pointed at a
 * loopback endpoint with no credentials configured, dummy ones are used so an
 * emulator works out of the box. With an endpoint, S3 uses path-style URLs,
 * which emulators and most compatible services need.
 */
export function createAwsClients(options: AwsClientOptions = {}): AwsClients {
  const endpoint = options.endpoint;
  if (endpoint !== undefined && !URL.canParse(endpoint)) {
    throw new Error(`Expected the endpoint to be a URL such as http://127.0.0.1:4566, got "${endpoint}"`);
  }
  // Set before the first client, it covers the process's later clients too (the judge key's).
  quietNodeVersionNotice();
  const region = options.region ?? (endpoint === undefined ? undefined : process.env.AWS_REGION || EMULATOR_REGION);
  const shared: S3ClientConfig & SQSClientConfig = {
    ...(region === undefined ? {} : { region }),
    ...(endpoint === undefined ? {} : { endpoint }),
    ...(endpoint !== undefined && isLoopback(endpoint) && !hasConfiguredCredentials(process.env)
      ? { credentials: EMULATOR_CREDENTIALS }
      : {}),
  };
  return {
    s3: new S3Client({ ...shared, ...(endpoint === undefined ? {} : { forcePathStyle: true }) }),
    sqs: new SQSClient(shared),
    ...(endpoint === undefined ? {} : { endpoint }),
  };
}

function isLoopback(endpoint: string): boolean {
  const hostname = new URL(endpoint).hostname;
  return hostname === 'localhost' || hostname === '[::1]' || hostname.startsWith('127.');
}

/** Whether any source of the SDK's default chain was set through the environment. */
function hasConfiguredCredentials(environment: NodeJS.ProcessEnv): boolean {
  return [
    'AWS_ACCESS_KEY_ID',
    'AWS_PROFILE',
    'AWS_WEB_IDENTITY_TOKEN_FILE',
    'AWS_CONTAINER_CREDENTIALS_FULL_URI',
    'AWS_CONTAINER_CREDENTIALS_RELATIVE_URI',
  ].some((name) => (environment[name] ?? '') !== '');
}

export interface AwsResourceNames {
  readonly bucket: string;
  readonly casesQueue: string;
  readonly deadLetterQueue: string;
  readonly controlQueue: string;
  /** Receives of a case message before it moves to the dead-letter queue. */
  readonly maxReceiveCount: number;
  /** How long a received message stays hidden; longer than a judge worker's invocation. */
  readonly visibilityTimeoutSeconds: number;
}

export interface AwsResources {
  readonly bucket: string;
  readonly cases: SqsQueue;
  readonly deadLetters: SqsQueue;
  readonly control: SqsQueue;
}

/** Dead letters are kept as long as SQS allows, so a failure can be inspected and redriven. */
const DEAD_LETTER_RETENTION_SECONDS = 14 * 24 * 60 * 60;

/**
 * Creates the bucket and the queues when absent and leaves them as they are
 * otherwise, so calling it on every start is safe. Deployed stacks get these
 * from the CDK app; this is for emulators and hand-made environments.
 */
export async function ensureAwsResources(clients: AwsClients, names: AwsResourceNames): Promise<AwsResources> {
  // Which service failed is known here: an endpoint with S3 alone fails at the queues (aws-endpoint-fault.ts).
  const inService =
    (service: 'S3' | 'SQS') =>
    (error: unknown): never => {
      throw awsEndpointFaultOf(error, clients.endpoint, service) ?? error;
    };
  await ensureBucket(clients.s3, names.bucket).catch(inService('S3'));
  return ensureQueues(clients.sqs, names).catch(inService('SQS'));
}

/** The run's queues, the dead-letter queue first: the cases queue's redrive policy names it. */
async function ensureQueues(sqs: SQSClient, names: AwsResourceNames): Promise<AwsResources> {
  const visibility = String(names.visibilityTimeoutSeconds);
  const deadLetters = await ensureQueue(sqs, names.deadLetterQueue, {
    MessageRetentionPeriod: String(DEAD_LETTER_RETENTION_SECONDS),
    VisibilityTimeout: visibility,
  });
  const deadLetterArn = await queueArn(sqs, deadLetters);
  const cases = await ensureQueue(sqs, names.casesQueue, {
    VisibilityTimeout: visibility,
    RedrivePolicy: JSON.stringify({ deadLetterTargetArn: deadLetterArn, maxReceiveCount: names.maxReceiveCount }),
  });
  const control = await ensureQueue(sqs, names.controlQueue, { VisibilityTimeout: visibility });
  return { bucket: names.bucket, cases, deadLetters, control };
}

async function ensureBucket(s3: S3Client, bucket: string): Promise<void> {
  try {
    await s3.send(new HeadBucketCommand({ Bucket: bucket }));
    return;
  } catch (error) {
    if (!hasStatus(error, 404)) throw error;
  }
  const region = await s3.config.region();
  try {
    await s3.send(
      new CreateBucketCommand({
        Bucket: bucket,
        // us-east-1 is the one region that refuses to be named here.
        ...(region === 'us-east-1' ? {} : { CreateBucketConfiguration: { LocationConstraint: region as BucketLocationConstraint } }),
      }),
    );
  } catch (error) {
    // Another process created it between the check and the create.
    if (errorName(error) !== 'BucketAlreadyOwnedByYou') throw error;
  }
}

/**
 * CreateQueue returns the existing queue when the attributes match; when
 * they differ (a changed visibility timeout or maxReceiveCount) it refuses,
 * and the existing queue is brought to the requested attributes instead.
 */
async function ensureQueue(sqs: SQSClient, name: string, attributes: Record<string, string>): Promise<SqsQueue> {
  try {
    const created = await sqs.send(new CreateQueueCommand({ QueueName: name, Attributes: attributes }));
    return new SqsQueue(sqs, required(created.QueueUrl, `CreateQueue ${name}`), name);
  } catch (error) {
    if (!isQueueNameTaken(error)) throw error;
  }
  const existing = await sqs.send(new GetQueueUrlCommand({ QueueName: name }));
  const url = required(existing.QueueUrl, `GetQueueUrl ${name}`);
  await sqs.send(new SetQueueAttributesCommand({ QueueUrl: url, Attributes: attributes }));
  return new SqsQueue(sqs, url, name);
}

async function queueArn(sqs: SQSClient, queue: SqsQueue): Promise<string> {
  const result = await sqs.send(new GetQueueAttributesCommand({ QueueUrl: queue.url, AttributeNames: ['QueueArn'] }));
  return required(result.Attributes?.QueueArn, `GetQueueAttributes QueueArn of ${queue.name}`);
}

function required(value: string | undefined, what: string): string {
  if (value === undefined || value === '') throw new Error(`${what} returned no value`);
  return value;
}

/**
 * SQS's JSON protocol reports this error as QueueNameExists, its query-compatible
 * code as QueueAlreadyExists, and emulators as `AWS.SimpleQueueService.QueueNameExists`.
 */
function isQueueNameTaken(error: unknown): boolean {
  if (error instanceof QueueNameExists) return true;
  const code = (errorName(error) ?? '').replace(/^AWS\.SimpleQueueService\./, '');
  return code === 'QueueNameExists' || code === 'QueueAlreadyExists';
}

function errorName(error: unknown): string | undefined {
  return error instanceof Error ? error.name : undefined;
}

function hasStatus(error: unknown, status: number): boolean {
  const metadata = (error as { $metadata?: { httpStatusCode?: number } } | undefined)?.$metadata;
  return metadata?.httpStatusCode === status;
}
