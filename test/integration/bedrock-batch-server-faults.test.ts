import { BedrockClient, GetModelInvocationJobCommand, type GetModelInvocationJobCommandOutput } from '@aws-sdk/client-bedrock';
import { CreateBucketCommand } from '@aws-sdk/client-s3';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  createJob as createJobOf,
  objectText as textOf,
  outputLines,
  type CreatedJob,
  type JobClients,
} from '../support/bedrock-batch/batch-client.js';
import { startBedrockBatchServer, type BedrockBatchServer, type JobFaults } from '../support/bedrock-batch-server.js';
import { useFauxqsClients } from '../support/fauxqs.js';
import { lengthOracle } from '../support/openai-batch/batch-client.js';

/**
 * The Bedrock batch test server's faults, driven through the real AWS SDK
 * (BedrockClient for the jobs, S3Client for their input and output) as a
 * batch judge meets them: error records, the key echoed back, a job stopped
 * mid-way, output that reaches S3 late, throttled and failing polls, broken
 * output lines, hostile status and message text, and what it billed.
 */
const BUCKET = 'bedrock-batch-server-faults';
const ACCESS_KEY = 'AKIDBEDROCKSERVERFAULTS';

const aws = useFauxqsClients();
let server: BedrockBatchServer;
let bedrock: BedrockClient;
let jobs = 0;
beforeAll(async () => {
  await aws.clients.s3.send(new CreateBucketCommand({ Bucket: BUCKET }));
});
beforeEach(async () => {
  server = await startBedrockBatchServer({
    oracle: lengthOracle,
    s3Endpoint: aws.fauxqs.endpoint,
    accessKeyId: ACCESS_KEY,
    progress: 'manual',
  });
  const credentials = { accessKeyId: ACCESS_KEY, secretAccessKey: 'bedrock-server-faults-secret' };
  // One attempt a call, so each faulted answer is seen rather than retried away.
  bedrock = new BedrockClient({ endpoint: server.endpoint, region: 'us-east-1', credentials, maxAttempts: 1 });
});
afterEach(async () => {
  bedrock.destroy();
  await server.close();
});

const clients = (): JobClients => ({ bedrock, s3: aws.clients.s3, bucket: BUCKET });

/** A job of `records` records (see createJob), created under these faults. */
async function createJob(records: number, faults: JobFaults = {}): Promise<CreatedJob> {
  jobs += 1;
  server.setFaults(faults);
  return createJobOf(clients(), `job-${jobs}`, records);
}

const objectText = (key: string): Promise<string> => textOf(clients(), key);

const getJob = (jobArn: string): Promise<GetModelInvocationJobCommandOutput> =>
  bedrock.send(new GetModelInvocationJobCommand({ jobIdentifier: jobArn }));

describe('records and jobs that fail', () => {
  it('writes error lines for the records named, or the first n, with the access key echoed; and echoes it in a failed job message', async () => {
    // Prepare
    const named = await createJob(3, { errorRecords: ['r1'], echoKey: true });
    await server.settle(named.jobArn);
    const counted = await createJob(3, { errorRecords: 2, errorRecordCode: 500 });
    await server.settle(counted.jobArn);
    const invalid = await createJob(1, { validationMessage: 'The model does not support batch inference.', echoKey: true });
    await server.settle(invalid.jobArn);
    // Act
    const namedLines = outputLines(await objectText(`${named.folder}input.jsonl.out`));
    const countedLines = outputLines(await objectText(`${counted.folder}input.jsonl.out`));
    const failed = await getJob(invalid.jobArn);
    // Assess
    expect(namedLines.map((line) => [line?.recordId, line?.error?.errorCode])).toEqual([
      ['r2', undefined],
      ['r1', 400],
      ['r0', undefined],
    ]);
    expect(namedLines[1]?.error?.errorMessage).toContain(ACCESS_KEY);
    expect(countedLines.map((line) => line?.error?.errorCode)).toEqual([undefined, 500, 500]);
    expect(countedLines[1]?.error?.errorMessage).not.toContain(ACCESS_KEY);
    expect(failed).toMatchObject({ status: 'Failed', message: expect.stringContaining(ACCESS_KEY) });
    // Error records never reach the oracle: r0 once (the first job), r2 in both jobs, r1 never.
    expect(Object.fromEntries(server.judged)).toEqual({ r0: 1, r2: 2 });
  });

  it('ends a job Stopped after the records asked, its output written for them', async () => {
    const { jobArn, folder } = await createJob(4, { stopAfterRecords: 2 });
    await server.settle(jobArn);
    const stopped = await getJob(jobArn);
    const manifest = JSON.parse(await objectText(`${folder}manifest.json.out`));
    expect(stopped.status).toBe('Stopped');
    expect(outputLines(await objectText(`${folder}input.jsonl.out`)).map((line) => line?.recordId)).toEqual(['r1', 'r0']);
    expect(manifest).toMatchObject({ totalRecordCount: 4, processedRecordCount: 2, successRecordCount: 2 });
  });
});

describe('polls and output that misbehave', () => {
  it('answers Completed while its output is not in S3 yet, and writes it after the Gets the plan says', async () => {
    // Prepare
    const { jobArn, folder } = await createJob(2, { outputLagGets: 1 });
    await server.settle(jobArn);
    // Act
    const first = await getJob(jobArn);
    const missing = [await objectText(`${folder}input.jsonl.out`), await objectText(`${folder}manifest.json.out`)];
    await getJob(jobArn);
    const present = await objectText(`${folder}input.jsonl.out`);
    // Assess
    expect(first.status).toBe('Completed');
    expect(missing).toEqual(['NoSuchKey', 'NoSuchKey']);
    expect(outputLines(present).map((line) => line?.recordId)).toEqual(['r1', 'r0']);
  });

  it('throttles the next Gets with ThrottlingException, then fails some with InternalServerException, then answers', async () => {
    const { jobArn } = await createJob(1, { throttleGets: 2, serverErrorGets: 1, echoKey: true });
    const errors = [];
    for (let call = 0; call < 3; call++)
      errors.push(
        await getJob(jobArn).then(
          () => undefined,
          (error: unknown) => error,
        ),
      );
    const answered = await getJob(jobArn);
    expect(errors.map((error) => (error instanceof Error ? [error.name, error.message.includes(ACCESS_KEY)] : error))).toEqual([
      ['ThrottlingException', true],
      ['ThrottlingException', true],
      ['InternalServerException', true],
    ]);
    expect(answered.status).toBe('Submitted');
    expect(server.log.filter((call) => call.method === 'GET').map((call) => call.status)).toEqual([429, 429, 500, 200]);
  });

  it('writes broken lines into the output: not JSON, duplicated with another answer, unknown, and the last cut; and bills them', async () => {
    // Prepare: the output is written r3, r2, r1, r0
    const faults = { notJsonLines: 1, duplicateLines: 1, unknownIdLines: 1, cutLastLine: true };
    const { jobArn, folder } = await createJob(4, faults);
    // Act
    await server.settle(jobArn);
    const text = await objectText(`${folder}input.jsonl.out`);
    // Assess: r3 not JSON, r2 again with r1's answer, then an unknown record, cut
    const lines = outputLines(text);
    const unknownId = `unknown-${jobArn.split('/').at(-1)}-1`;
    expect(text.split('\n')[0]).toBe('this is not json');
    expect(text.endsWith('\n')).toBe(false);
    expect(lines.map((line) => line?.recordId)).toEqual([undefined, 'r2', 'r1', 'r0', 'r2', undefined]);
    expect(JSON.stringify(lines[4]?.modelOutput)).toBe(JSON.stringify(lines[2]?.modelOutput));
    expect(JSON.stringify(lines[4]?.modelOutput)).not.toBe(JSON.stringify(lines[1]?.modelOutput));
    expect(server.brokenLines.map((line) => [line.recordId, line.kind])).toEqual([
      ['r3', 'notJsonLines'],
      ['r2', 'duplicateLines'],
      [unknownId, 'unknownIdLines'],
      [unknownId, 'cutLastLine'],
    ]);
    expect(server.billed(jobArn).lines).toBe(6);
  });
});

describe('hostile text, and what was sent and billed', () => {
  it('appends its suffixes to the status while InProgress and to the message, and the job still completes', async () => {
    const faults = { statusSuffix: '\u001b]0;pwned\u0007', messageSuffix: '\u202e' };
    const { jobArn } = await createJob(2, faults);
    for (let step = 0; step < 3; step++) await server.advance(jobArn);
    const running = await getJob(jobArn);
    await server.settle(jobArn);
    const done = await getJob(jobArn);
    expect([running.status, running.message]).toEqual([`InProgress${faults.statusSuffix}`, '\u202e']);
    expect([done.status, done.message]).toEqual(['Completed', '\u202e']);
  });

  it('counts each recordId once a job that sent it, and bills the usage its output lines carry', async () => {
    // Prepare
    const first = await createJob(2);
    const second = await createJob(1);
    // Act
    await server.settle();
    const lines = outputLines(await objectText(`${first.folder}input.jsonl.out`));
    // Assess
    const usage = lines.map((line) => line?.modelOutput?.usage ?? { inputTokens: 0, outputTokens: 0 });
    expect(Object.fromEntries(server.sent)).toEqual({ r0: 2, r1: 1 });
    expect(server.billed(first.jobArn)).toEqual({
      input_tokens: usage.reduce((sum, entry) => sum + entry.inputTokens, 0),
      output_tokens: usage.reduce((sum, entry) => sum + entry.outputTokens, 0),
      lines: 2,
    });
    expect(server.billed().lines).toBe(3);
    expect(server.billed(second.jobArn).lines).toBe(1);
  });
});
