import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { bucketStore } from '../../cli/run/bucket-store.js';
import { readBatchState } from '../../shared/batch-judging/batch-state.js';
import { reportSchema } from '../../shared/schema/report.js';
import { catalogOracle } from '../support/judge-oracle.js';
import { REPOSITORY_ROOT } from '../support/markdown.js';
import { startDeployedStack, type DeployedStack } from '../support/deployed-stack.js';
import { startOpenAiBatchServer, type OpenAiBatchServer } from '../support/openai-batch-server.js';
import { startSecretsManagerTestServer, type SecretsManagerTestServer } from '../support/secrets-manager-test-server.js';

/**
 * A batch-judged suite on the deployed stack (fauxqs, the Lambda handlers
 * run here): no Lambda waits for a job. The judge workers record the cases
 * as waiting; the reducer's checks submit the job once every case has
 * reported, poll it on delayed check messages, collect its answers and send
 * the waiting cases again, which are judged from them; then the report.
 */
const BUCKET = 'assay-batch';
const SECRET_ARN = 'arn:aws:secretsmanager:us-east-1:123456789012:secret:assay-judge-AbC123';

let stack: DeployedStack;
let secrets: SecretsManagerTestServer;
let batch: OpenAiBatchServer;
beforeAll(async () => {
  batch = await startOpenAiBatchServer({ oracle: catalogOracle });
  secrets = await startSecretsManagerTestServer({ value: 'sk-deployed-batch' });
  stack = await startDeployedStack(BUCKET);
  Object.assign(process.env, {
    ASSAY_JUDGE_SECRET_ARN: SECRET_ARN,
    AWS_ENDPOINT_URL_SECRETS_MANAGER: secrets.endpoint,
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: 'test',
    AWS_SECRET_ACCESS_KEY: 'test',
    OPENAI_BASE_URL: batch.baseUrl,
    ASSAY_JUDGE_MODEL: 'judge-model',
  });
});
afterAll(async () => {
  await stack.close();
  await Promise.all([secrets.close(), batch.close()]);
});

describe('a batch-judged suite, deployed', () => {
  it('is judged through one job the reducer submits, polls and collects, and reported with every case', async () => {
    // Prepare: the suite's config asks for batch judging; the dataset lands in the bucket
    const store = bucketStore(BUCKET, stack.endpoint);
    await store.put('config/nightly.yaml', 'judges: [chunk_relevance, correctness]\njudge:\n  batch: {poll_seconds: 0.5}\n');
    await store.put(
      'datasets/nightly/search-assistant.jsonl',
      await readFile(join(REPOSITORY_ROOT, 'examples', 'datasets', 'search-assistant.jsonl')),
    );

    // Act: what S3's event starts: ingest, then the queues' consumers until the report
    const runId = await stack.process('datasets/nightly/search-assistant.jsonl');

    // Assess
    const report = reportSchema.parse(JSON.parse(new TextDecoder().decode(await store.get(`reports/nightly/${runId}/report.json`))));
    expect(report.cases).toEqual({ total: 12, evaluated: 12, failed: 0, missing: 0, judge_failed: 0 });
    expect(report.judge).toMatch(/, in batch jobs$/);
    expect(report.judges.chunk_relevance).toMatchObject({ errors: 0 });
    expect(batch.batches.size).toBe(1);
    expect([...batch.judged.values()].every((times) => times === 1)).toBe(true);
    expect(batch.log.filter((call) => !/\/v1\/(files|batches)/.test(call.path))).toEqual([]);
    const state = await readBatchState(store, runId);
    expect(state).toMatchObject({ round: 1, jobs: [{ round: 0, phase: 'finished', collected: true }] });
  }, 120_000);
});
