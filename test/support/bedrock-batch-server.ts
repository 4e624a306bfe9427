import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { GetObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { createAwsClients } from '../../shared/ports/aws-clients.js';
import type { Oracle } from './chat-completion-answer.js';
import { createJobSchema, InvocationJob, type JobContext, type JobFaults } from './bedrock-batch/invocation-job.js';
import { RecordAnswers } from './bedrock-batch/record-answers.js';

/**
 * A local stand-in for Amazon Bedrock's batch inference control plane, on
 * 127.0.0.1 only, that the AWS SDK's BedrockClient talks to unchanged (REST
 * JSON over HTTP/1.1, SigV4 with its access key checked, errors named in
 * `x-amzn-errortype`): CreateModelInvocationJob (`POST
 * /model-invocation-job`), GetModelInvocationJob (`GET
 * /model-invocation-job/{jobIdentifier}`), StopModelInvocationJob (`POST
 * .../stop`) and ListModelInvocationJobs (`GET /model-invocation-jobs`). A
 * job reads its input from the S3 emulator and writes its output there, and
 * answers each record with the same reading, oracle and response body as the
 * online Bedrock test server, so a batch run and an online run agree. Any
 * other path, Converse above all, is answered 404 and logged.
 */
export type { JobFaults } from './bedrock-batch/invocation-job.js';
export type { InvocationJob } from './bedrock-batch/invocation-job.js';

export interface BedrockBatchServerOptions {
  readonly oracle: Oracle;
  /** The S3 emulator (fauxqs) the jobs read and write. */
  readonly s3Endpoint: string;
  /** The access key a request's SigV4 credential must name; unchecked when absent. */
  readonly accessKeyId?: string;
  readonly faults?: JobFaults;
  /** 'on-retrieve' (default): each GetModelInvocationJob steps that job once before answering; 'manual': only advance() and settle() do. */
  readonly progress?: 'on-retrieve' | 'manual';
  /** Records answered by one InProgress step; default half the job's (rounded up). */
  readonly recordsPerStep?: number;
  /** The model's minimum records per job; default 1. */
  readonly minRecords?: number;
}

export interface LoggedCall {
  readonly method: string;
  readonly path: string;
  readonly status: number;
}

export interface BedrockBatchServer {
  /** http://127.0.0.1:PORT, for AWS_ENDPOINT_URL_BEDROCK. */
  readonly endpoint: string;
  readonly log: readonly LoggedCall[];
  /** Every job created, by ARN, in order of creation. */
  readonly jobs: ReadonlyMap<string, InvocationJob>;
  /** recordId → how many times the oracle judged it, over every job. */
  readonly judged: ReadonlyMap<string, number>;
  readonly oracleErrors: readonly string[];
  /** One step of that job, or of every unfinished job. */
  advance(jobArn?: string): Promise<void>;
  /** Steps that job (or every one) until it is finished. */
  settle(jobArn?: string): Promise<void>;
  setFaults(plan: JobFaults): void;
  close(): Promise<void>;
}

const ACCOUNT = '123456789012';
const REGION = 'us-east-1';

export async function startBedrockBatchServer(options: BedrockBatchServerOptions): Promise<BedrockBatchServer> {
  const { s3 } = createAwsClients({ endpoint: options.s3Endpoint });
  const jobs = new Map<string, InvocationJob>();
  const answers = new RecordAnswers(options.oracle);
  const log: LoggedCall[] = [];
  let plan: JobFaults = options.faults ?? {};
  const context: JobContext = {
    async readObject(uri) {
      const { bucket, key } = objectOf(uri);
      try {
        return await (await s3.send(new GetObjectCommand({ Bucket: bucket, Key: key }))).Body?.transformToString('utf8');
      } catch {
        return undefined;
      }
    },
    async writeObject(uri, text) {
      const { bucket, key } = objectOf(uri);
      await s3.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: text }));
    },
    faults: () => plan,
    answer: (record, modelId) => answers.answer(record, modelId, plan),
    minRecords: options.minRecords ?? 1,
    recordsPerStep: options.recordsPerStep,
    now: () => new Date(),
  };
  const unfinished = (jobArn: string | undefined) =>
    [...jobs.values()].filter((job) => (jobArn === undefined || job.jobArn === jobArn) && !job.finished);

  async function route(method: string, url: URL, body: string): Promise<Reply> {
    const path = url.pathname;
    if (method === 'POST' && path === '/model-invocation-job') return create(body);
    if (method === 'GET' && path === '/model-invocation-jobs') {
      const named = url.searchParams.get('nameContains') ?? '';
      const found = [...jobs.values()].filter((job) => job.request.jobName.includes(named)).reverse();
      return { status: 200, body: { invocationJobSummaries: found.map((job) => job.toObject()) } };
    }
    const jobPath = /^\/model-invocation-job\/([^/]+)(\/stop)?$/.exec(path);
    const job = jobPath === null ? undefined : jobOf(decodeURIComponent(jobPath[1] ?? ''));
    if (jobPath !== null && job === undefined)
      return error(404, 'ResourceNotFoundException', 'The specified batch inference job does not exist.');
    if (job !== undefined && method === 'GET' && jobPath?.[2] === undefined) {
      if ((options.progress ?? 'on-retrieve') === 'on-retrieve') await job.step(context);
      return { status: 200, body: job.toObject() };
    }
    if (job !== undefined && method === 'POST' && jobPath?.[2] === '/stop') {
      const refused = job.stop();
      return refused === undefined ? { status: 200, body: {} } : error(400, 'ValidationException', refused);
    }
    return error(404, 'UnknownOperationException', `Unknown operation ${method} ${path}`);
  }

  function create(body: string): Reply {
    const parsed = createJobSchema.safeParse(JSON.parse(body));
    if (!parsed.success)
      return error(400, 'ValidationException', parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; '));
    const request = parsed.data;
    // The same token is the same request: its job, not a second one.
    const same = [...jobs.values()].find(
      (job) =>
        plan.forgetTokens !== true &&
        request.clientRequestToken !== undefined &&
        job.request.clientRequestToken === request.clientRequestToken,
    );
    if (same !== undefined) return { status: 200, body: { jobArn: same.jobArn } };
    if ([...jobs.values()].some((job) => job.request.jobName === request.jobName))
      return error(409, 'ConflictException', `A batch inference job named ${request.jobName} already exists.`);
    const jobArn = `arn:aws:bedrock:${REGION}:${ACCOUNT}:model-invocation-job/test${String(jobs.size + 1).padStart(8, '0')}`;
    jobs.set(jobArn, new InvocationJob(jobArn, request, new Date()));
    return { status: 200, body: { jobArn } };
  }

  function jobOf(identifier: string): InvocationJob | undefined {
    return jobs.get(identifier) ?? [...jobs.values()].find((job) => job.jobId === identifier);
  }

  async function handle(incoming: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(incoming.url ?? '/', 'http://127.0.0.1');
    const chunks: Buffer[] = [];
    for await (const chunk of incoming) chunks.push(chunk as Buffer);
    const credential = /^AWS4-HMAC-SHA256 Credential=([^/]+)\/\d{8}\/[a-z0-9-]+\/bedrock\/aws4_request, /.exec(
      incoming.headers.authorization ?? '',
    );
    const reply =
      options.accessKeyId !== undefined && credential?.[1] !== options.accessKeyId
        ? error(403, 'UnrecognizedClientException', 'The security token included in the request is invalid.')
        : await route(incoming.method ?? 'GET', url, Buffer.concat(chunks).toString('utf8'));
    log.push({ method: incoming.method ?? 'GET', path: url.pathname, status: reply.status });
    send(response, reply);
  }

  const server = createServer((incoming, response) => {
    handle(incoming, response).catch((failure: unknown) =>
      send(
        response,
        error(500, 'InternalServerException', `The test server failed: ${failure instanceof Error ? failure.message : String(failure)}`),
      ),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    log,
    jobs,
    judged: answers.judged,
    oracleErrors: answers.oracleErrors,
    advance: async (jobArn) => {
      await Promise.all(unfinished(jobArn).map((job) => job.step(context)));
    },
    settle: async (jobArn) => {
      // Each step moves a job on (a state, or at least one record), so this ends.
      for (let left = unfinished(jobArn); left.length > 0; left = unfinished(jobArn))
        await Promise.all(left.map((job) => job.step(context)));
    },
    setFaults: (next) => {
      plan = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        s3.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

interface Reply {
  readonly status: number;
  readonly body: object;
  readonly errorType?: string;
}

function error(status: number, type: string, message: string): Reply {
  return { status, body: { message }, errorType: type };
}

function send(response: ServerResponse, reply: Reply): void {
  const typed =
    reply.errorType === undefined ? {} : { 'x-amzn-errortype': `${reply.errorType}:http://internal.amazon.com/coral/com.amazon.bedrock/` };
  response.writeHead(reply.status, { 'content-type': 'application/json', 'x-amzn-requestid': 'test-request', ...typed });
  response.end(JSON.stringify(reply.body));
}

function objectOf(uri: string): { bucket: string; key: string } {
  const match = /^s3:\/\/([^/]+)\/(.+)$/.exec(uri);
  if (match === null) throw new Error(`Not the S3 URI of an object: ${uri}`);
  return { bucket: match[1] ?? '', key: match[2] ?? '' };
}
