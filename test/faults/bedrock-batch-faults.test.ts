import { CreateBucketCommand } from '@aws-sdk/client-s3';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createAwsClients } from '../../shared/ports/aws-clients.js';
import { reportSchema, type Report } from '../../shared/schema/report.js';
import { startBedrockBatchServer, type BedrockBatchServer } from '../support/bedrock-batch-server.js';
import { startBedrockTestServer, type BedrockTestServer } from '../support/bedrock-test-server.js';
import { BUILT_BIN, runBuiltCli } from '../support/built-cli.js';
import { startFauxqs, type Fauxqs } from '../support/fauxqs.js';
import { catalogOracle } from '../support/judge-oracle.js';
import { REPOSITORY_ROOT } from '../support/markdown.js';
import { createTempFolder, type TempFolder } from '../support/temp-folder.js';
import { until } from '../support/until.js';

/**
 * A run judged in Amazon Bedrock batch inference jobs, through the built
 * bin, when its jobs or its process do not go as planned: killed while it
 * waits, a job that ends partly done or expired, a job that fails
 * validation. A case is never lost, no request is judged twice, and no
 * Converse call is made.
 */
const DATASET = join(REPOSITORY_ROOT, 'examples', 'datasets', 'search-assistant.jsonl');
const JUDGES = 'chunk_relevance,correctness';
const MODEL = 'anthropic.claude-3-5-haiku-20241022-v1:0';
const ACCESS_KEY = 'AKIDBEDROCKBATCHFAULT';
const BUCKET = 'assay-bedrock-faults';

let fauxqs: Fauxqs;
let online: BedrockTestServer;
let folder: TempFolder;
let server: BedrockBatchServer;
beforeAll(async () => {
  fauxqs = await startFauxqs();
  const { s3 } = createAwsClients({ endpoint: fauxqs.endpoint });
  await s3.send(new CreateBucketCommand({ Bucket: BUCKET }));
  s3.destroy();
  online = await startBedrockTestServer({ oracle: catalogOracle, accessKeyId: ACCESS_KEY });
});
afterAll(async () => {
  await online.close();
  await fauxqs.close();
});
beforeEach(async () => {
  folder = await createTempFolder();
  server = await startBedrockBatchServer({
    oracle: catalogOracle,
    s3Endpoint: fauxqs.endpoint,
    accessKeyId: ACCESS_KEY,
    progress: 'manual',
  });
});
afterEach(async () => {
  await server.close();
  await folder.remove();
});

const environment = () => ({
  AWS_ACCESS_KEY_ID: ACCESS_KEY,
  AWS_SECRET_ACCESS_KEY: 'bedrock-batch-faults-secret',
  AWS_ENDPOINT_URL_BEDROCK: server.endpoint,
  AWS_ENDPOINT_URL_S3: fauxqs.endpoint,
});
const store = () => join(folder.path, 'store');
const out = () => join(folder.path, 'out');

async function config(): Promise<string> {
  const bedrock = { region: 'us-east-1', model_id: MODEL, endpoint: online.endpoint };
  const batch = {
    poll_seconds: 0.05,
    bedrock: {
      s3_uri: `s3://${BUCKET}/faults/${folder.path.split('/').at(-1)}`,
      role_arn: 'arn:aws:iam::123456789012:role/assay-bedrock-batch',
      min_records_per_job: 1,
    },
  };
  return folder.write('batch.json', JSON.stringify({ judge: { provider: 'bedrock', bedrock, batch } }));
}

const assay = (args: readonly string[]) => runBuiltCli(args, { env: environment() });
const run = async () => ['run', DATASET, '--judges', JUDGES, '--config', await config(), '--store', store(), '--out', out()];
const report = async (): Promise<Report> => reportSchema.parse(JSON.parse(await readFile(join(out(), 'report.json'), 'utf8')));
const everyRecordJudgedOnce = () => [...server.judged.values()].every((times) => times === 1);
const jobs = () => [...server.jobs.values()].map((job) => job.toObject());

describe('Bedrock batch judging when things go wrong', () => {
  it('creates no second job when killed while waiting, and assay resume collects the job and reports every case', async () => {
    // Prepare: the run, in a process group of its own, waits on a job the server does not move
    const child = spawn(process.execPath, [BUILT_BIN, ...(await run())], {
      env: { ...process.env, ...environment() },
      detached: true,
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    const exited = once(child, 'exit');
    const runId =
      /^run (r-[0-9a-f]{16})$/.exec(
        await new Promise<string>((resolve) => createInterface({ input: child.stdout }).once('line', resolve)),
      )?.[1] ?? '';
    await until(() => server.jobs.size === 1, 30_000);
    await until(
      () => server.log.filter((call) => call.method === 'GET' && call.path.startsWith('/model-invocation-job/')).length >= 2,
      30_000,
    );

    // Act: kill -9 of its process group; the job finishes while nothing runs; then resume
    process.kill(-(child.pid ?? 0), 'SIGKILL');
    await exited;
    await server.settle();
    const resumed = await assay(['resume', runId, '--store', store(), '--out', out()]);

    // Assess
    expect(resumed.exitCode).toBe(0);
    expect(server.jobs.size).toBe(1);
    expect((await report()).cases).toEqual({ total: 12, evaluated: 12, failed: 0, missing: 0, judge_failed: 0 });
    expect(everyRecordJudgedOnce()).toBe(true);
    expect(online.log).toEqual([]);
  }, 90_000);

  it.each([
    { state: 'PartiallyCompleted', fault: { partialAfterRecords: 10 } },
    { state: 'Expired', fault: { expireAfterRecords: 10 } },
  ])(
    'keeps the lines a job that ended $state answered, sends the rest once more in a new job, and judges nothing twice',
    async ({ state, fault }) => {
      // Prepare: the first job ends with 10 records done
      server.setFaults(fault);
      const stepping = setInterval(() => {
        if (server.jobs.size > 1) server.setFaults({});
        void server.advance();
      }, 20);

      // Act
      const ran = await assay(await run()).finally(() => clearInterval(stepping));

      // Assess
      expect(ran.exitCode).toBe(0);
      const [first, second] = jobs();
      expect(first).toMatchObject({ status: state, processedRecordCount: 10 });
      expect(second).toMatchObject({ status: 'Completed' });
      expect(second?.totalRecordCount).toBe(Number(first?.totalRecordCount) - 10);
      expect(everyRecordJudgedOnce()).toBe(true);
      expect((await report()).cases).toEqual({ total: 12, evaluated: 12, failed: 0, missing: 0, judge_failed: 0 });
      expect(ran.stderr).toContain(`test00000001 ${state}, 10/`);
    },
    90_000,
  );

  it("exits 1 naming the provider's error when a job fails validation; the run stays resumable", async () => {
    // Prepare
    const message = 'The provided model identifier is invalid for batch inference in this Region.';
    server.setFaults({ validationMessage: message });
    const stepping = setInterval(() => void server.advance(), 20);

    // Act
    const failed = await assay(await run());
    server.setFaults({});
    const runId = /^run (r-[0-9a-f]{16})$/m.exec(failed.stdout)?.[1] ?? '';
    const resumed = await assay(['resume', runId, '--store', store(), '--out', out()]).finally(() => clearInterval(stepping));

    // Assess
    expect(failed.exitCode).toBe(1);
    expect(failed.stderr).toContain(
      `batch job arn:aws:bedrock:us-east-1:123456789012:model-invocation-job/test00000001 failed validation: Failed: ${message}; nothing of it ran or was paid for`,
    );
    expect(resumed.exitCode).toBe(0);
    expect(server.jobs.size).toBe(2);
    expect((await report()).cases.evaluated).toBe(12);
  }, 90_000);
});
