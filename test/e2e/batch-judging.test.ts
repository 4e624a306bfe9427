import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reportSchema, type Report } from '../../shared/schema/report.js';
import { runBuiltCli, type BuiltCliOutcome } from '../support/built-cli.js';
import { catalogOracle } from '../support/judge-oracle.js';
import { REPOSITORY_ROOT } from '../support/markdown.js';
import { startOpenAiBatchServer, type OpenAiBatchServer } from '../support/openai-batch-server.js';
import { startOpenAiTestServer, type OpenAiTestServer } from '../support/openai-test-server.js';
import { createTempFolder, type TempFolder } from '../support/temp-folder.js';

/**
 * `assay run --batch`, as a user runs it (the built bin), against a local
 * server that speaks OpenAI's files and batches and answers each line as the
 * online test server answers the same request: the same metrics as the
 * online run, byte for byte; one job holding exactly the run's unique judge
 * requests; no online judge call; the judge cost at the batch price.
 */
const EXAMPLE = join(REPOSITORY_ROOT, 'examples', 'datasets', 'search-assistant.jsonl');
const JUDGES = 'chunk_relevance,graded_relevance,correctness,groundedness,document_recall';
const PRICES = { currency: 'USD', models: { 'judge-model': { input_per_million: 2, output_per_million: 8 } } };

let folder: TempFolder;
let online: OpenAiTestServer;
let batch: OpenAiBatchServer;
beforeAll(async () => {
  folder = await createTempFolder();
  online = await startOpenAiTestServer({ oracle: catalogOracle });
  batch = await startOpenAiBatchServer({ oracle: catalogOracle });
});
afterAll(async () => {
  await Promise.all([online.close(), batch.close()]);
  await folder.remove();
});

async function assay(
  name: string,
  dataset: string,
  baseUrl: string,
  extra: readonly string[] = [],
): Promise<{ outcome: BuiltCliOutcome; report: Report }> {
  const config = await folder.write(
    `${name}.json`,
    JSON.stringify({ judge: { prices: PRICES, ...(extra.includes('--batch') ? { batch: { poll_seconds: 0.05 } } : {}) } }),
  );
  const out = join(folder.path, name, 'out');
  const judges = extra.includes('--judges') ? [] : ['--judges', JUDGES];
  const outcome = await runBuiltCli(
    ['run', dataset, ...judges, '--config', config, '--store', join(folder.path, name, 'store'), '--out', out, ...extra],
    {
      env: { OPENAI_API_KEY: 'sk-batch-test', OPENAI_BASE_URL: baseUrl, ASSAY_JUDGE_MODEL: 'judge-model' },
    },
  );
  if (outcome.exitCode !== 0) throw new Error(`assay run ${name} exited ${outcome.exitCode}: ${outcome.stderr}`);
  return { outcome, report: reportSchema.parse(JSON.parse(await readFile(join(out, 'report.json'), 'utf8'))) };
}

let onlineExample: ReturnType<typeof assay> | undefined;
/** The example dataset judged online, once for the file: what every batch run of it must equal. */
const viaOnlineExample = () => (onlineExample ??= assay('online', EXAMPLE, online.baseUrl));

/** What an online run asked: every distinct chat completion request body the online server received. */
function distinctOnlineRequests(server: OpenAiTestServer): number {
  return new Set(server.log.map((entry) => JSON.stringify(entry.request))).size;
}

describe('assay run --batch', () => {
  it("judges the example dataset in one job of its unique requests, to the online run's metrics, at half the price", async () => {
    // Act
    const viaOnline = await viaOnlineExample();
    const viaBatch = await assay('batch', EXAMPLE, batch.baseUrl, ['--batch']);

    // Assess: the same metrics, to the byte
    expect(JSON.stringify(viaBatch.report.engines)).toBe(JSON.stringify(viaOnline.report.engines));
    expect(viaBatch.report.cases).toEqual({ total: 12, evaluated: 12, failed: 0, missing: 0, judge_failed: 0 });
    // One job, holding each request the online run made once
    expect(batch.batches.size).toBe(1);
    const [job] = [...batch.batches.values()];
    expect(job?.toObject().request_counts).toMatchObject({
      total: distinctOnlineRequests(online),
      completed: distinctOnlineRequests(online),
      failed: 0,
    });
    expect([...batch.judged.values()].every((times) => times === 1)).toBe(true);
    // No online judge call: nothing but files and batches was asked
    expect(batch.log.filter((call) => !/\/v1\/(files|batches)/.test(call.path))).toEqual([]);
    // The cost is the batch price, half the same tokens on demand
    const cost = viaBatch.report.judge_cost;
    expect(cost?.total).toBeCloseTo((cost?.online_cost ?? Number.NaN) / 2, 12);
    expect(cost?.online_cost).toBeCloseTo(viaOnline.report.judge_cost?.total ?? Number.NaN, 12);
    expect(viaBatch.report.judge).toMatch(/, in batch jobs$/);
    expect(viaBatch.outcome.stderr).toMatch(/batch: 1 job submitted \(\d+ requests\)/);
  }, 120_000);

  it("judges 500 passages in one job of 500 requests, to the online run's metrics", async () => {
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
    const requestsBefore = online.log.length;
    const batchesBefore = batch.batches.size;

    // Act
    const viaOnline = await assay('online-500', dataset, online.baseUrl, ['--judges', 'chunk_relevance']);
    const viaBatch = await assay('batch-500', dataset, batch.baseUrl, ['--batch', '--judges', 'chunk_relevance']);

    // Assess
    expect(online.log.length - requestsBefore).toBe(500);
    expect(JSON.stringify(viaBatch.report.engines)).toBe(JSON.stringify(viaOnline.report.engines));
    expect(batch.batches.size - batchesBefore).toBe(1);
    expect([...batch.batches.values()].at(-1)?.toObject().request_counts).toMatchObject({ total: 500, completed: 500, failed: 0 });
    expect(viaBatch.report.judges.chunk_relevance).toMatchObject({ calls: 500, errors: 0 });
  }, 120_000);

  it('submits no request run.max_judge_cost does not cover: the cases past it are evaluated without their LLM judges', async () => {
    // Prepare: a ceiling of USD 0.1 at USD 1 and 4 a million tokens in batch (half of 2 and 8): a request of about 120 input tokens and up to 1024 output tokens is estimated at USD 0.0042
    const config = await folder.write(
      'ceiling.json',
      JSON.stringify({ judge: { prices: PRICES, batch: { poll_seconds: 0.05 } }, run: { max_judge_cost: 0.1 } }),
    );
    const out = join(folder.path, 'ceiling', 'out');
    const batchesBefore = batch.batches.size;

    // Act
    const run = await runBuiltCli(
      ['run', EXAMPLE, '--judges', JUDGES, '--config', config, '--store', join(folder.path, 'ceiling', 'store'), '--out', out],
      {
        env: { OPENAI_API_KEY: 'sk-batch-test', OPENAI_BASE_URL: batch.baseUrl, ASSAY_JUDGE_MODEL: 'judge-model' },
      },
    );

    // Assess: a job of the cases that fit; the others evaluated, their LLM judges skipped; the spend under the ceiling
    expect(run.exitCode).toBe(0);
    const report = reportSchema.parse(JSON.parse(await readFile(join(out, 'report.json'), 'utf8')));
    const budget = report.judge_budget;
    expect(budget).toMatchObject({ max_judge_cost: 0.1, reached: true });
    expect(budget?.judged_cases).toBeGreaterThan(0);
    expect(budget?.skipped_cases).toBeGreaterThan(0);
    expect((budget?.judged_cases ?? 0) + (budget?.skipped_cases ?? 0)).toBe(12);
    expect(report.cases).toEqual({ total: 12, evaluated: 12, failed: 0, missing: 0, judge_failed: 0 });
    expect(report.judge_cost?.total).toBeLessThanOrEqual(0.1);
    expect(batch.batches.size - batchesBefore).toBe(1);
    expect([...batch.batches.values()].at(-1)?.toObject().request_counts?.total).toBeLessThan(distinctOnlineRequests(online));
  }, 120_000);

  it.each([
    { paths: 'the v1 API (/openai/v1/)', apiVersion: 'v1' },
    { paths: 'a dated api-version', apiVersion: '2024-10-21' },
  ])(
    'judges on an Azure OpenAI Global Batch deployment through $paths, every line naming the deployment',
    async ({ apiVersion }) => {
      // Prepare
      const azure = await startOpenAiBatchServer({ oracle: catalogOracle, azureKey: 'azure-batch-key' });
      const config = await folder.write(
        `azure-${apiVersion}.json`,
        JSON.stringify({
          judge: {
            provider: 'azure',
            azure: { endpoint: azure.origin, deployment: 'judge-batch', api_version: apiVersion },
            batch: { poll_seconds: 0.05 },
          },
        }),
      );
      const out = join(folder.path, `azure-${apiVersion}`, 'out');
      const viaOnline = await viaOnlineExample();

      // Act
      const run = await runBuiltCli(
        [
          'run',
          EXAMPLE,
          '--judges',
          JUDGES,
          '--config',
          config,
          '--store',
          join(folder.path, `azure-${apiVersion}`, 'store'),
          '--out',
          out,
        ],
        {
          env: { AZURE_OPENAI_API_KEY: 'azure-batch-key', ASSAY_JUDGE_MODEL: 'judge-model' },
        },
      ).finally(() => azure.close());

      // Assess
      expect({ exitCode: run.exitCode, stderr: run.exitCode === 0 ? '' : run.stderr }).toEqual({ exitCode: 0, stderr: '' });
      const report = reportSchema.parse(JSON.parse(await readFile(join(out, 'report.json'), 'utf8')));
      expect(JSON.stringify(report.engines)).toBe(JSON.stringify(viaOnline.report.engines));
      expect(azure.batches.size).toBe(1);
      expect(new Set(azure.models.values())).toEqual(new Set(['judge-batch']));
      // Every call under the deployment's API with its key; any other is named by what it was
      const strays = azure.log.filter(
        (call) => call.headers['api-key'] !== 'azure-batch-key' || !call.path.startsWith(apiVersion === 'v1' ? '/openai/v1/' : '/openai/'),
      );
      expect(strays.map((call) => `${call.method} ${call.url} ${call.status} key:${call.headers['api-key'] ?? 'none'}`)).toEqual([]);
    },
    120_000,
  );
});
