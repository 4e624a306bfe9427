import { CreateBucketCommand, GetObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { collectJob, createPlanned, planJobs, pollJob, submitJobs } from '../../shared/batch-judging/batch-jobs.js';
import { readBatchState, type BatchState } from '../../shared/batch-judging/batch-state.js';
import { batchKeys, batchRequestId, batchAnswerSchema, type BatchRequest } from '../../shared/schema/batch-request.js';
import { bedrockBatchProvider } from '../../shared/batch-providers/bedrock-batch-provider.js';
import { converseInput } from '../../shared/judge-client/bedrock-converse.js';
import { MemoryStore } from '../../shared/ports/memory-store.js';
import { startBedrockBatchServer, type BedrockBatchServer } from '../support/bedrock-batch-server.js';
import { useFauxqsClients } from '../support/fauxqs.js';
import { catalogOracle } from '../support/judge-oracle.js';
import { z } from 'zod';

/**
 * Amazon Bedrock's batch inference through the provider, against a local
 * control plane that reads and writes the S3 emulator: what goes in a job
 * (Converse records under the run's prefix, the job named by its key), the
 * answers read back by recordId, the job's states and counts, and a job a
 * process created but did not record, found again instead of created twice.
 */
const RUN = 'r-00000000000000bb';
const BUCKET = 'assay-bedrock-batch';
const ACCESS_KEY = 'AKIDBEDROCKBATCHTEST';
const MODEL = 'anthropic.claude-3-5-haiku-20241022-v1:0';
const ROLE = 'arn:aws:iam::123456789012:role/assay-bedrock-batch';
const now = () => new Date('2026-11-28T00:00:00Z');
const verdict = z.object({ rationale: z.string(), rating: z.enum(['yes', 'no']) });

const aws = useFauxqsClients();
let server: BedrockBatchServer;
beforeAll(async () => {
  await aws.clients.s3.send(new CreateBucketCommand({ Bucket: BUCKET }));
});
beforeEach(async () => {
  server = await startBedrockBatchServer({
    oracle: catalogOracle,
    s3Endpoint: aws.fauxqs.endpoint,
    accessKeyId: ACCESS_KEY,
    progress: 'manual',
  });
  vi.stubEnv('AWS_ACCESS_KEY_ID', ACCESS_KEY);
  vi.stubEnv('AWS_SECRET_ACCESS_KEY', 'bedrock-batch-secret-key');
  vi.stubEnv('AWS_ENDPOINT_URL_BEDROCK', server.endpoint);
  vi.stubEnv('AWS_ENDPOINT_URL_S3', aws.fauxqs.endpoint);
  return async () => {
    vi.unstubAllEnvs();
    await server.close();
  };
});
afterAll(() => vi.unstubAllEnvs());

/** A judge request as the Bedrock batch completer makes it: the Converse input, modelId included. */
function request(index: number, model = MODEL): BatchRequest {
  const messages = [
    { role: 'system' as const, content: 'Judge the passage.' },
    { role: 'user' as const, content: `Passage ${index}: rotate the key, then rotate the clients.` },
  ];
  const body = { ...converseInput('tool', messages, verdict, 'chunk_relevance', { modelId: model, maxTokens: 256, temperature: 0 }) };
  return { id: batchRequestId(body, 0, 0), judge: 'chunk_relevance', model, sample: 0, attempt: 0, body };
}

const provider = (minRecordsPerJob = 1) =>
  bedrockBatchProvider({ region: 'us-east-1', s3Uri: `s3://${BUCKET}/assay`, roleArn: ROLE, minRecordsPerJob });

async function objectText(key: string): Promise<string> {
  return (await (await aws.clients.s3.send(new GetObjectCommand({ Bucket: BUCKET, Key: key }))).Body?.transformToString('utf8')) ?? '';
}

describe('Amazon Bedrock batch inference jobs', () => {
  it('writes Converse records under the run prefix, names the job by its key, and reads the answers back by recordId', async () => {
    // Prepare
    const bedrock = provider();
    const store = new MemoryStore();
    const planned = planJobs([request(0), request(1), request(2)], bedrock, undefined);

    // Act
    const submitted = await submitJobs(store, bedrock, RUN, { round: 0, jobs: [] }, planned, now);
    const [job] = submitted.jobs;
    if (job === undefined) throw new Error('Expected the three requests to be submitted as a job');
    await server.settle();
    const polled = await pollJob(bedrock, job, now);
    const collected = await collectJob(store, bedrock, RUN, polled);

    // Assess: one job, of the Converse type, as the run's key, reading the run's input
    expect(server.jobs.size).toBe(1);
    const [created] = [...server.jobs.values()];
    expect(created?.request).toMatchObject({
      jobName: `${RUN}-r0-j0`,
      clientRequestToken: `${RUN}-r0-j0`,
      roleArn: ROLE,
      modelId: MODEL,
      modelInvocationType: 'Converse',
      inputDataConfig: { s3InputDataConfig: { s3Uri: `s3://${BUCKET}/assay/runs/${RUN}/batch/bedrock/${RUN}-r0-j0/input.jsonl` } },
    });
    const records = (await objectText(`assay/runs/${RUN}/batch/bedrock/${RUN}-r0-j0/input.jsonl`))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { recordId: string; modelInput: Record<string, unknown> });
    expect(records.map((record) => record.recordId)).toEqual(planned[0]?.ids);
    expect(records[0]?.modelInput).not.toHaveProperty('modelId');
    expect(records[0]?.modelInput).toMatchObject({
      toolConfig: { toolChoice: { tool: { name: 'chunk_relevance' } } },
      inferenceConfig: { maxTokens: 256, temperature: 0 },
    });
    // Its state, counts from the job, and every answer under its request id
    expect(polled).toMatchObject({ state: 'Completed', phase: 'finished', counts: { total: 3, completed: 3, failed: 0 } });
    expect(collected.collected).toBe(true);
    for (const id of planned[0]?.ids ?? []) {
      const answer = batchAnswerSchema.parse(JSON.parse(new TextDecoder().decode(await store.get(batchKeys.answer(RUN, id)))));
      expect(answer.answer).toMatchObject({ kind: 'response', status: 200, body: { stopReason: 'tool_use' } });
    }
  });

  it('finds a job created by a process that died before recording it, instead of creating a second', async () => {
    // Prepare: a job created at the provider, then its id lost
    const bedrock = provider();
    const store = new MemoryStore();
    const submitted = await submitJobs(
      store,
      bedrock,
      RUN,
      { round: 0, jobs: [] },
      planJobs([request(0), request(1)], bedrock, undefined),
      now,
    );
    const orphan: BatchState = {
      round: 0,
      jobs: submitted.jobs.map((known) => ({ ...known, provider_id: undefined, state: 'planned', phase: 'planned' })),
    };
    await store.put(batchKeys.state(RUN), JSON.stringify(orphan));

    // Act: the next process finds it by name; a create of the same name, its token forgotten, meets the name taken and takes that job
    const recovered = await createPlanned(store, bedrock, RUN, await readBatchState(store, RUN), now);
    server.setFaults({ forgetTokens: true });
    const again = await bedrock.create(`${RUN}-r0-j0`, 'ignored', { runId: RUN, model: MODEL });

    // Assess
    expect(server.jobs.size).toBe(1);
    expect(recovered.jobs[0]?.provider_id).toBe(submitted.jobs[0]?.provider_id);
    expect(again.id).toBe(submitted.jobs[0]?.provider_id);
    expect(server.log.filter((call) => call.path === '/model-invocation-job' && call.status === 409)).toHaveLength(1);
  });

  it.each([
    {
      fault: { validationMessage: 'The model anthropic.claude-3-5-haiku does not support batch inference in this Region.' },
      state: 'Failed',
      phase: 'failed',
      done: 0,
    },
    { fault: { partialAfterRecords: 2 }, state: 'PartiallyCompleted', phase: 'finished', done: 2 },
    { fault: { expireAfterRecords: 1 }, state: 'Expired', phase: 'finished', done: 1 },
  ])('reads a job that ends $state: its phase, its done lines kept and the rest owed', async ({ fault, state, phase, done }) => {
    // Prepare
    const bedrock = provider();
    const store = new MemoryStore();
    server.setFaults(fault);
    const planned = planJobs([request(0), request(1), request(2), request(3)], bedrock, undefined);
    const submitted = await submitJobs(store, bedrock, RUN, { round: 0, jobs: [] }, planned, now);

    const [job] = submitted.jobs;
    if (job === undefined) throw new Error('Expected the four requests to be submitted as a job');

    // Act
    await server.settle();
    const polled = await pollJob(bedrock, job, now);
    if (polled.phase === 'finished') await collectJob(store, bedrock, RUN, polled);

    // Assess
    expect(polled).toMatchObject({ state, phase });
    if (phase === 'failed') {
      expect(polled.errors).toEqual([{ code: 'Failed', message: 'validationMessage' in fault ? fault.validationMessage : '' }]);
      return;
    }
    const answers = await Promise.all(
      (planned[0]?.ids ?? []).map(
        async (id) => batchAnswerSchema.parse(JSON.parse(new TextDecoder().decode(await store.get(batchKeys.answer(RUN, id))))).answer.kind,
      ),
    );
    expect(answers.filter((kind) => kind === 'response')).toHaveLength(done);
    expect(answers.filter((kind) => kind === 'line-failed')).toHaveLength(4 - done);
  });

  it("stops a job, and says Bedrock's minimum records a job in its limits", async () => {
    const bedrock = provider(100);
    const store = new MemoryStore();
    const submitted = await submitJobs(store, bedrock, RUN, { round: 0, jobs: [] }, planJobs([request(0)], bedrock, undefined), now);

    await bedrock.cancel(submitted.jobs[0]?.provider_id ?? '');
    await server.settle();

    expect((await bedrock.status(submitted.jobs[0]?.provider_id ?? '')).state).toBe('Stopped');
    expect(bedrock.limits).toEqual({ maxRequests: 50_000, maxBytes: 1024 * 1024 * 1024, minRequests: 100 });
  });
});
