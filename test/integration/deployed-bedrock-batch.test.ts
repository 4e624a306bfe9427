import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { bucketStore } from '../../cli/run/bucket-store.js';
import { readBatchState } from '../../shared/batch-judging/batch-state.js';
import { reportSchema } from '../../shared/schema/report.js';
import { startBedrockBatchServer, type BedrockBatchServer } from '../support/bedrock-batch-server.js';
import { startBedrockTestServer, type BedrockTestServer } from '../support/bedrock-test-server.js';
import { catalogOracle } from '../support/judge-oracle.js';
import { REPOSITORY_ROOT } from '../support/markdown.js';
import { startDeployedStack, type DeployedStack } from '../support/deployed-stack.js';

/**
 * A batch-judged suite on a deployed stack of Bedrock judges (fauxqs, the
 * Lambda handlers run here): the reducer's checks create the model
 * invocation job in the stack's bucket, as the stack's service role, from
 * the environment the stack gives the reducer; poll it and collect its
 * output from the bucket; the judge workers judge the waiting cases from the
 * answers. No Converse call is made.
 */
const BUCKET = 'assay-bedrock-stack';
const MODEL = 'anthropic.claude-3-5-haiku-20241022-v1:0';
const ROLE = 'arn:aws:iam::123456789012:role/Assay-BedrockBatchRole';
const ACCESS_KEY = 'AKIDDEPLOYEDBATCH';

let stack: DeployedStack;
let batch: BedrockBatchServer;
let online: BedrockTestServer;
beforeAll(async () => {
  stack = await startDeployedStack(BUCKET);
  batch = await startBedrockBatchServer({ oracle: catalogOracle, s3Endpoint: stack.endpoint, accessKeyId: ACCESS_KEY });
  online = await startBedrockTestServer({ oracle: catalogOracle, accessKeyId: ACCESS_KEY });
  // What the stack sets on its functions for Bedrock judges, and the endpoints of the loopback services.
  Object.assign(process.env, {
    ASSAY_JUDGE_PROVIDER: 'bedrock',
    ASSAY_JUDGE_MODEL: MODEL,
    ASSAY_BEDROCK_BATCH_S3_URI: `s3://${BUCKET}`,
    ASSAY_BEDROCK_BATCH_ROLE_ARN: ROLE,
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: ACCESS_KEY,
    AWS_SECRET_ACCESS_KEY: 'deployed-bedrock-batch-secret',
    AWS_ENDPOINT_URL_BEDROCK: batch.endpoint,
    AWS_ENDPOINT_URL_S3: stack.endpoint,
  });
});
afterAll(async () => {
  await stack.close();
  await Promise.all([batch.close(), online.close()]);
});

describe('a batch-judged suite on a stack of Bedrock judges', () => {
  it("is judged through one job the reducer creates in the stack's bucket as its service role, and reported with every case", async () => {
    // Prepare: the suite's config asks for batch judging (the place of the jobs is the stack's); the dataset lands in the bucket
    const store = bucketStore(BUCKET, stack.endpoint);
    const config = `judges: [chunk_relevance, correctness]\njudge:\n  provider: bedrock\n  bedrock: {region: us-east-1, model_id: ${MODEL}, endpoint: "${online.endpoint}"}\n  batch: {poll_seconds: 0.5, bedrock: {min_records_per_job: 1}}\n`;
    await store.put('config/nightly.yaml', config);
    await store.put(
      'datasets/nightly/search-assistant.jsonl',
      await readFile(join(REPOSITORY_ROOT, 'examples', 'datasets', 'search-assistant.jsonl')),
    );

    // Act
    const runId = await stack.process('datasets/nightly/search-assistant.jsonl');

    // Assess
    const report = reportSchema.parse(JSON.parse(new TextDecoder().decode(await store.get(`reports/nightly/${runId}/report.json`))));
    expect(report.cases).toEqual({ total: 12, evaluated: 12, failed: 0, missing: 0, judge_failed: 0 });
    expect(report.judge).toMatch(/on Amazon Bedrock .*, in batch jobs$/);
    expect(batch.jobs.size).toBe(1);
    const [job] = [...batch.jobs.values()];
    expect(job?.request).toMatchObject({ roleArn: ROLE, modelId: MODEL, jobName: `${runId}-r0-j0` });
    expect(job?.request.inputDataConfig.s3InputDataConfig.s3Uri).toBe(
      `s3://${BUCKET}/runs/${runId}/batch/bedrock/${runId}-r0-j0/input.jsonl`,
    );
    expect(await store.get(`runs/${runId}/batch/bedrock/${runId}-r0-j0/input.jsonl`)).toBeDefined();
    expect([...batch.judged.values()].every((times) => times === 1)).toBe(true);
    expect(online.log).toEqual([]);
    expect(await readBatchState(store, runId)).toMatchObject({
      round: 1,
      jobs: [{ round: 0, phase: 'finished', state: 'Completed', collected: true }],
    });
  }, 120_000);
});
