import { CreateBucketCommand } from '@aws-sdk/client-s3';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createAwsClients } from '../../shared/ports/aws-clients.js';
import { reportSchema, type Report } from '../../shared/schema/report.js';
import { FAULT_DATASET, FAULT_JUDGES } from '../support/batch-fault-run.js';
import { startBedrockBatchServer, type BedrockBatchServer } from '../support/bedrock-batch-server.js';
import { startBedrockTestServer, type BedrockTestServer } from '../support/bedrock-test-server.js';
import { runBuiltCli } from '../support/built-cli.js';
import { startFauxqs, type Fauxqs } from '../support/fauxqs.js';
import { catalogOracle } from '../support/judge-oracle.js';
import { filesUnder } from '../support/store-files.js';
import { createTempFolder, type TempFolder } from '../support/temp-folder.js';

/**
 * A run judged in Amazon Bedrock batch inference jobs, through the built
 * bin, when Bedrock misbehaves: error records, records it writes badly, a
 * job stopped with records answered, a throttled and failing
 * GetModelInvocationJob, output that reaches S3 late, the access key echoed
 * in its messages, text that would drive a terminal. Nothing paid for is
 * lost, each record is sent once (its resubmission a record of its own),
 * every metric is the clean run's, the tokens reported are those billed,
 * and the key is in no file and no output.
 */
const MODEL = 'anthropic.claude-3-5-haiku-20241022-v1:0';
const ACCESS_KEY = 'AKIDBEDROCKPROVIDERFAULT';
const BUCKET = 'assay-bedrock-provider-faults';
const PRICES = { currency: 'USD', models: { [MODEL]: { input_per_million: 0.8, output_per_million: 4 } } };

let fauxqs: Fauxqs;
let online: BedrockTestServer;
let server: BedrockBatchServer;
let clean: { report: Report; records: number };
const folders: TempFolder[] = [];

beforeAll(async () => {
  fauxqs = await startFauxqs();
  const { s3 } = createAwsClients({ endpoint: fauxqs.endpoint });
  await s3.send(new CreateBucketCommand({ Bucket: BUCKET }));
  s3.destroy();
  online = await startBedrockTestServer({ oracle: catalogOracle, accessKeyId: ACCESS_KEY });
  server = await startBedrockBatchServer({ oracle: catalogOracle, s3Endpoint: fauxqs.endpoint, accessKeyId: ACCESS_KEY });
  const reference = await bedrockRun();
  const outcome = await reference.run();
  if (outcome.exitCode !== 0) throw new Error(`the clean run exited ${outcome.exitCode}: ${outcome.stderr}`);
  clean = { report: await reference.report(), records: Number(jobs()[0]?.totalRecordCount ?? 0) };
}, 90_000);
afterEach(() => server.setFaults({}));
afterAll(async () => {
  await Promise.all(folders.map((folder) => folder.remove()));
  await server.close();
  await online.close();
  await fauxqs.close();
});

const jobs = () => [...server.jobs.values()].map((job) => job.toObject());

/** A run in a folder of its own, its jobs' files under a prefix of its own. */
async function bedrockRun() {
  const folder = await createTempFolder();
  folders.push(folder);
  const store = join(folder.path, 'store');
  const out = join(folder.path, 'out');
  const environment = {
    AWS_ACCESS_KEY_ID: ACCESS_KEY,
    AWS_SECRET_ACCESS_KEY: 'bedrock-provider-faults-secret',
    AWS_ENDPOINT_URL_BEDROCK: server.endpoint,
    AWS_ENDPOINT_URL_S3: fauxqs.endpoint,
  };
  return {
    store,
    out,
    async run() {
      const batch = {
        poll_seconds: 0.05,
        bedrock: {
          s3_uri: `s3://${BUCKET}/faults/${folder.path.split('/').at(-1)}`,
          role_arn: 'arn:aws:iam::123456789012:role/assay-bedrock-batch',
          min_records_per_job: 1,
        },
      };
      const bedrock = { region: 'us-east-1', model_id: MODEL, endpoint: online.endpoint };
      const config = await folder.write('batch.json', JSON.stringify({ judge: { provider: 'bedrock', bedrock, batch, prices: PRICES } }));
      const args = ['run', FAULT_DATASET, '--judges', FAULT_JUDGES, '--config', config, '--store', store, '--out', out];
      return runBuiltCli(args, { env: environment });
    },
    report: async () => reportSchema.parse(JSON.parse(await readFile(join(out, 'report.json'), 'utf8'))),
    files: async () => [...(await filesUnder(store)), ...(await filesUnder(out))],
  };
}

/** Each record id's lines sent from `before` (a snapshot of the server's counts) on: a run's own. */
function sentSince(before: ReadonlyMap<string, number>): number[] {
  return [...server.sent].map(([id, times]) => times - (before.get(id) ?? 0)).filter((times) => times > 0);
}

describe('Bedrock batch inference that misbehaves', () => {
  it('keeps every readable record through error records, broken lines, throttled looks and late output, with no key kept', async () => {
    // Prepare: the first job's output is broken and late, its looks throttled and failing, its errors echo the key
    const run = await bedrockRun();
    const before = server.jobs.size;
    const sentBefore = new Map(server.sent);
    server.setFaults({
      errorRecords: 2,
      errorRecordCode: 500,
      notJsonLines: 1,
      cutLastLine: true,
      unknownIdLines: 1,
      duplicateLines: 1,
      throttleGets: 3,
      serverErrorGets: 2,
      outputLagGets: 2,
      echoKey: true,
      statusSuffix: '\u202e',
      messageSuffix: '\u001b]0;pwned\u0007',
    });
    const cleared = setInterval(() => {
      if (server.jobs.size > before + 1) server.setFaults({});
    }, 5);

    // Act
    const outcome = await run.run().finally(() => clearInterval(cleared));

    // Assess
    expect(outcome.exitCode, outcome.stderr).toBe(0);
    const [first, second] = jobs().slice(before);
    const broken = server.brokenLines.filter((line) => line.jobArn === first?.jobArn);
    const resent = new Set([...broken.map((line) => line.recordId).filter((id) => server.sent.has(id))]);
    // The two error records (a 500 each) and the records of the broken lines, each sent once more
    expect(Number(second?.totalRecordCount)).toBe(resent.size + 2);
    expect(sentSince(sentBefore)).toEqual(new Array(clean.records + resent.size + 2).fill(1));
    expect(JSON.stringify((await run.report()).engines)).toBe(JSON.stringify(clean.report.engines));
    expect(online.log).toEqual([]);
    for (const file of await run.files()) expect(file.text, file.path).not.toContain(ACCESS_KEY);
    expect(`${outcome.stdout}${outcome.stderr}`).not.toContain(ACCESS_KEY);
    expect(outcome.stderr).not.toMatch(/[\u001b\u0007\u202e]/);
    expect(outcome.stderr).toMatch(/batch: the provider did not answer \(HTTP 429 ThrottlingException: /);
  }, 90_000);

  it('keeps the records a stopped job answered, sends the rest once more, and counts every billed token once', async () => {
    // Prepare
    const run = await bedrockRun();
    const before = server.jobs.size;
    const billedBefore = server.billed();
    server.setFaults({ stopAfterRecords: 10 });
    const cleared = setInterval(() => {
      if (server.jobs.size > before + 1) server.setFaults({});
    }, 5);

    // Act
    const outcome = await run.run().finally(() => clearInterval(cleared));

    // Assess
    expect(outcome.exitCode, outcome.stderr).toBe(0);
    const [first, second] = jobs().slice(before);
    expect(first).toMatchObject({ status: 'Stopped', processedRecordCount: 10 });
    expect(Number(second?.totalRecordCount)).toBe(clean.records - 10);
    const report = await run.report();
    expect(JSON.stringify(report.engines)).toBe(JSON.stringify(clean.report.engines));
    const billed = server.billed();
    expect({
      input: report.judge_cost?.models[MODEL]?.batch_input_tokens,
      output: report.judge_cost?.models[MODEL]?.batch_output_tokens,
    }).toEqual({ input: billed.input_tokens - billedBefore.input_tokens, output: billed.output_tokens - billedBefore.output_tokens });
  }, 90_000);
});
