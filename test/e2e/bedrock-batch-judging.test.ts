import { CreateBucketCommand } from '@aws-sdk/client-s3';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAwsClients } from '../../shared/ports/aws-clients.js';
import { reportSchema, type Report } from '../../shared/schema/report.js';
import { startBedrockBatchServer, type BedrockBatchServer } from '../support/bedrock-batch-server.js';
import { startBedrockTestServer, type BedrockTestServer } from '../support/bedrock-test-server.js';
import { runBuiltCli, type BuiltCliOutcome } from '../support/built-cli.js';
import { startFauxqs, type Fauxqs } from '../support/fauxqs.js';
import { catalogOracle } from '../support/judge-oracle.js';
import { REPOSITORY_ROOT } from '../support/markdown.js';
import { createTempFolder, type TempFolder } from '../support/temp-folder.js';

/**
 * `assay run --batch` on Amazon Bedrock, as a user runs it (the built bin):
 * the jobs' input and output in an S3 emulator, a local control plane that
 * runs model invocation jobs of the Converse type and answers each record as
 * the online Bedrock test server answers the same request. The metrics are
 * the online run's, byte for byte; one job holds exactly the run's unique
 * requests; no Converse call is made; the judge cost is at the batch price.
 * A round below Bedrock's minimum records a job is judged online, or refused.
 */
const EXAMPLE = join(REPOSITORY_ROOT, 'examples', 'datasets', 'search-assistant.jsonl');
const JUDGES = 'chunk_relevance,graded_relevance,correctness,groundedness,document_recall';
const MODEL = 'anthropic.claude-3-5-haiku-20241022-v1:0';
const ACCESS_KEY = 'AKIDBEDROCKBATCHRUNS';
const BUCKET = 'assay-bedrock-batch';
const ROLE = 'arn:aws:iam::123456789012:role/assay-bedrock-batch';
const PRICES = { currency: 'USD', models: { [MODEL]: { input_per_million: 2, output_per_million: 8 } } };

let folder: TempFolder;
let fauxqs: Fauxqs;
let online: BedrockTestServer;
let batch: BedrockBatchServer;
beforeAll(async () => {
  folder = await createTempFolder();
  fauxqs = await startFauxqs();
  const { s3 } = createAwsClients({ endpoint: fauxqs.endpoint });
  await s3.send(new CreateBucketCommand({ Bucket: BUCKET }));
  s3.destroy();
  online = await startBedrockTestServer({ oracle: catalogOracle, accessKeyId: ACCESS_KEY, http: '1.1' });
  batch = await startBedrockBatchServer({ oracle: catalogOracle, s3Endpoint: fauxqs.endpoint, accessKeyId: ACCESS_KEY });
});
afterAll(async () => {
  await Promise.all([online.close(), batch.close()]);
  await fauxqs.close();
  await folder.remove();
});

/** The judge section of a run on Bedrock; `batch` adds judge.batch with the place of its jobs. */
function judgeSection(batchSettings: object | undefined): object {
  const bedrock = { region: 'us-east-1', model_id: MODEL, endpoint: online.endpoint };
  const place = { s3_uri: `s3://${BUCKET}/assay`, role_arn: ROLE, min_records_per_job: 1 };
  return {
    provider: 'bedrock',
    bedrock,
    prices: PRICES,
    ...(batchSettings === undefined
      ? {}
      : { batch: { poll_seconds: 0.05, ...batchSettings, bedrock: { ...place, ...(batchSettings as { bedrock?: object }).bedrock } } }),
  };
}

async function assay(name: string, dataset: string, judges: string, batchSettings?: object): Promise<BuiltCliOutcome> {
  const config = await folder.write(`${name}.json`, JSON.stringify({ judge: judgeSection(batchSettings) }));
  return runBuiltCli(
    [
      'run',
      dataset,
      '--judges',
      judges,
      '--config',
      config,
      '--store',
      join(folder.path, name, 'store'),
      '--out',
      join(folder.path, name, 'out'),
    ],
    {
      env: {
        AWS_ACCESS_KEY_ID: ACCESS_KEY,
        AWS_SECRET_ACCESS_KEY: 'bedrock-batch-runs-secret-key',
        AWS_ENDPOINT_URL_BEDROCK: batch.endpoint,
        AWS_ENDPOINT_URL_S3: fauxqs.endpoint,
      },
    },
  );
}

async function reportOf(name: string, outcome: BuiltCliOutcome): Promise<Report> {
  if (outcome.exitCode !== 0) throw new Error(`assay run ${name} exited ${outcome.exitCode}: ${outcome.stderr}`);
  return reportSchema.parse(JSON.parse(await readFile(join(folder.path, name, 'out', 'report.json'), 'utf8')));
}

let onlineExample: Promise<{ report: Report; requests: number }> | undefined;
/** The example dataset judged online, once for the file: what every batch run of it must equal, and how many distinct requests it made. */
function viaOnlineExample(): Promise<{ report: Report; requests: number }> {
  onlineExample ??= (async () => {
    const before = online.log.length;
    const report = await reportOf('online', await assay('online', EXAMPLE, JUDGES));
    return { report, requests: new Set(online.log.slice(before).map((entry) => JSON.stringify([entry.modelId, entry.body]))).size };
  })();
  return onlineExample;
}

describe('assay run --batch on Amazon Bedrock', () => {
  it("judges the example dataset in one Converse job of its unique requests, to the online run's metrics, at half the price", async () => {
    // Act
    const viaOnline = await viaOnlineExample();
    const conversesBefore = online.log.length;
    const run = await assay('batch', EXAMPLE, JUDGES, {});
    const viaBatch = await reportOf('batch', run);

    // Assess: the same metrics, to the byte
    expect(JSON.stringify(viaBatch.engines)).toBe(JSON.stringify(viaOnline.report.engines));
    expect(viaBatch.cases).toEqual({ total: 12, evaluated: 12, failed: 0, missing: 0, judge_failed: 0 });
    // One job holding each request the online run made, once; no Converse call
    expect(batch.jobs.size).toBe(1);
    const [job] = [...batch.jobs.values()];
    expect(job?.toObject()).toMatchObject({
      status: 'Completed',
      modelId: MODEL,
      modelInvocationType: 'Converse',
      totalRecordCount: viaOnline.requests,
      successRecordCount: viaOnline.requests,
    });
    expect([...batch.judged.values()].every((times) => times === 1)).toBe(true);
    expect(online.log.length).toBe(conversesBefore);
    // The cost is the batch price, half the same tokens on demand
    const cost = viaBatch.judge_cost;
    expect(cost?.total).toBeCloseTo((cost?.online_cost ?? Number.NaN) / 2, 12);
    expect(cost?.online_cost).toBeCloseTo(viaOnline.report.judge_cost?.total ?? Number.NaN, 12);
    expect(viaBatch.judge).toMatch(/on Amazon Bedrock \(us-east-1, endpoint 127\.0\.0\.1:\d+\), .*, in batch jobs$/);
    expect(run.stderr).toMatch(
      /batch: 1 job submitted \(\d+ requests\): arn:aws:bedrock:us-east-1:123456789012:model-invocation-job\/test\d+/,
    );
  }, 180_000);

  it("judges 500 passages in one job of 500 records, to the online run's metrics", async () => {
    // Prepare: 100 queries of 5 passages each, every passage its own text
    const rows = Array.from({ length: 100 }, (_, query) => ({
      request_id: `q${query}`,
      request: `How do I rotate key number ${query}?`,
      response: `Rotate key ${query} in the console.`,
      retrieved_context: Array.from({ length: 5 }, (__, passage) => ({
        doc_uri: `d${query}-${passage}`,
        content: `Passage ${passage} of query ${query}${passage % 2 === 0 ? ': rotate the key, then rotate the clients' : ''}.`,
      })),
    }));
    const dataset = await folder.write('passages.jsonl', rows.map((row) => JSON.stringify(row)).join('\n'));
    const conversesBefore = online.log.length;
    const jobsBefore = batch.jobs.size;

    // Act
    const viaOnline = await reportOf('online-500', await assay('online-500', dataset, 'chunk_relevance'));
    const viaBatch = await reportOf('batch-500', await assay('batch-500', dataset, 'chunk_relevance', {}));

    // Assess
    expect(online.log.length - conversesBefore).toBe(500);
    expect(JSON.stringify(viaBatch.engines)).toBe(JSON.stringify(viaOnline.engines));
    expect(batch.jobs.size - jobsBefore).toBe(1);
    expect([...batch.jobs.values()].at(-1)?.toObject()).toMatchObject({ totalRecordCount: 500, successRecordCount: 500 });
    expect(viaBatch.judges.chunk_relevance).toMatchObject({ calls: 500, errors: 0 });
  }, 180_000);

  it("judges online, priced online, a round below Bedrock's minimum records a job (below_minimum: online, the default)", async () => {
    // Prepare: a minimum above the example's requests
    const viaOnline = await viaOnlineExample();
    const jobsBefore = batch.jobs.size;
    const conversesBefore = online.log.length;

    // Act
    const run = await assay('below-online', EXAMPLE, JUDGES, { bedrock: { min_records_per_job: 1000 } });
    const report = await reportOf('below-online', run);

    // Assess: no job; every request asked online once; the online run's metrics and cost
    expect(batch.jobs.size).toBe(jobsBefore);
    expect(online.log.length - conversesBefore).toBe(viaOnline.requests);
    expect(JSON.stringify(report.engines)).toBe(JSON.stringify(viaOnline.report.engines));
    expect(report.judge_cost?.total).toBeCloseTo(viaOnline.report.judge_cost?.total ?? Number.NaN, 12);
    expect(run.stderr).toContain(
      'below the minimum of 1000 records a job of Amazon Bedrock batch inference (us-east-1) (judge.batch.bedrock.min_records_per_job); they are judged online',
    );
  }, 180_000);

  it('stops naming the minimum under below_minimum: refuse, with no job and no online call', async () => {
    const jobsBefore = batch.jobs.size;
    const conversesBefore = online.log.length;

    const run = await assay('below-refuse', EXAMPLE, JUDGES, { below_minimum: 'refuse', bedrock: { min_records_per_job: 1000 } });

    expect(run.exitCode).toBe(1);
    expect(run.stderr).toMatch(
      /assay run: 12 cases need requests that would make a batch job of \d+, below the minimum of 1000 records a job of Amazon Bedrock batch inference \(us-east-1\) \(judge\.batch\.bedrock\.min_records_per_job\), and judge\.batch\.below_minimum is refuse/,
    );
    expect(batch.jobs.size).toBe(jobsBefore);
    expect(online.log.length).toBe(conversesBefore);
  }, 180_000);
});
