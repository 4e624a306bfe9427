import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { GetObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { createAwsClients } from '../../shared/ports/aws-clients.js';
import { error, routeControlPlane, send, type ControlPlane } from './bedrock-batch/control-plane.js';
import type { InvocationJob } from './bedrock-batch/invocation-job.js';
import type { JobContext, JobFaults } from './bedrock-batch/job-context.js';
import { RecordAnswers } from './bedrock-batch/record-answers.js';
import type { BedrockBatchServer, BedrockBatchServerOptions, BrokenRecord, LoggedCall } from './bedrock-batch/server-api.js';
import { idsOfLines, ResultLedger } from './openai-batch/result-ledger.js';

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
export type { InvocationJob } from './bedrock-batch/invocation-job.js';
export type { JobFaults } from './bedrock-batch/job-context.js';
export type { BedrockBatchServer, BedrockBatchServerOptions, BrokenRecord, LoggedCall } from './bedrock-batch/server-api.js';
export type { BilledTokens } from './openai-batch/result-ledger.js';

export async function startBedrockBatchServer(options: BedrockBatchServerOptions): Promise<BedrockBatchServer> {
  const { s3 } = createAwsClients({ endpoint: options.s3Endpoint });
  const jobs = new Map<string, InvocationJob>();
  const answers = new RecordAnswers(options.oracle);
  const log: LoggedCall[] = [];
  const ledger = new ResultLedger();
  const brokenLines: BrokenRecord[] = [];
  let plan: JobFaults = options.faults ?? {};
  const faultedGets = { throttled: 0, failed: 0 };
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
    answer: (record, position, modelId, accessKeyId) => answers.answer(record, position, modelId, plan, accessKeyId),
    minRecords: options.minRecords ?? 1,
    recordsPerStep: options.recordsPerStep,
    now: () => new Date(),
    wroteOutput: (jobArn, written) => {
      ledger.bill(jobArn, written.billed);
      for (const { id, kind } of written.broken) brokenLines.push({ jobArn, recordId: id, kind });
    },
  };
  const plane: ControlPlane = {
    jobs,
    context,
    stepOnGet: (options.progress ?? 'on-retrieve') === 'on-retrieve',
    plan: () => plan,
    getFault: () => {
      if (faultedGets.throttled < (plan.throttleGets ?? 0)) {
        faultedGets.throttled += 1;
        return 'throttle';
      }
      if (faultedGets.failed < (plan.serverErrorGets ?? 0)) {
        faultedGets.failed += 1;
        return 'server-error';
      }
      return undefined;
    },
    created: async (job) => {
      const input = await context.readObject(job.request.inputDataConfig.s3InputDataConfig.s3Uri);
      ledger.countSent(idsOfLines(input ?? '', 'recordId'));
    },
  };
  const unfinished = (jobArn: string | undefined) =>
    [...jobs.values()].filter((job) => (jobArn === undefined || job.jobArn === jobArn) && !job.finished);

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
        : await routeControlPlane(
            { method: incoming.method ?? 'GET', url, body: Buffer.concat(chunks).toString('utf8'), accessKeyId: credential?.[1] },
            plane,
          );
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
    sent: ledger.sent,
    brokenLines,
    billed: (jobArn) => ledger.billed(jobArn),
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
      faultedGets.throttled = 0;
      faultedGets.failed = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        s3.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function objectOf(uri: string): { bucket: string; key: string } {
  const match = /^s3:\/\/([^/]+)\/(.+)$/.exec(uri);
  if (match === null) throw new Error(`Not the S3 URI of an object: ${uri}`);
  return { bucket: match[1] ?? '', key: match[2] ?? '' };
}
