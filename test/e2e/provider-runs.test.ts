import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { reportSchema, type Report } from '../../shared/schema/report.js';
import { startBedrockTestServer, type BedrockTestServer } from '../support/bedrock-test-server.js';
import { catalogOracle } from '../support/judge-oracle.js';
import { startOpenAiTestServer, type OpenAiTestServer } from '../support/openai-test-server.js';
import { runCli } from '../support/run-cli.js';
import { createTempFolder, type TempFolder } from '../support/temp-folder.js';

/**
 * The example dataset judged end to end by `assay run` on each judge
 * provider, each against a loopback server that speaks its wire and answers
 * as the same oracle: an OpenAI-compatible server, an Azure OpenAI deployment
 * (deployment path, api-version, api-key header), and Amazon Bedrock's
 * Converse (SigV4, a forced tool) behind an http:// endpoint that speaks
 * HTTP/1.1, as a proxy, a gateway or LocalStack does. The engine metrics are
 * the same whichever provider judged them, and the judge line names provider
 * and model.
 */
const DATASET = join(import.meta.dirname, '..', '..', 'examples', 'datasets', 'search-assistant.jsonl');
const JUDGES = 'chunk_relevance,correctness';
const AZURE_KEY = 'azure-key-for-the-example-run';
const ACCESS_KEY = 'AKIDEXAMPLERUNJUDGES';
const BEDROCK_MODEL = 'anthropic.claude-3-5-haiku-20241022-v1:0';
/** Every variable any provider reads: each run sets only its own. */
const JUDGE_VARIABLES = [
  'OPENAI_API_KEY',
  'OPENAI_BASE_URL',
  'ASSAY_JUDGE_MODEL',
  'ASSAY_JUDGE_PROVIDER',
  'AZURE_OPENAI_API_KEY',
  'AWS_ACCESS_KEY_ID',
  'AWS_SECRET_ACCESS_KEY',
  'AWS_SESSION_TOKEN',
  'AWS_PROFILE',
  'AWS_REGION',
];

let folder: TempFolder;
let openAi: OpenAiTestServer;
let azure: OpenAiTestServer;
let bedrock: BedrockTestServer;
beforeAll(async () => {
  folder = await createTempFolder();
  openAi = await startOpenAiTestServer({ oracle: catalogOracle });
  azure = await startOpenAiTestServer({ oracle: catalogOracle, azureKey: AZURE_KEY });
  bedrock = await startBedrockTestServer({ oracle: catalogOracle, accessKeyId: ACCESS_KEY, http: '1.1' });
});
afterAll(async () => {
  vi.unstubAllEnvs();
  await Promise.all([openAi.close(), azure.close(), bedrock.close()]);
  await folder.remove();
});

/** `assay run` of the example dataset with `judge` as the config's judge section and `variables` as the only judge variables set. */
async function runOn(name: string, judge: object, variables: Record<string, string>): Promise<Report> {
  vi.unstubAllEnvs();
  for (const variable of JUDGE_VARIABLES) vi.stubEnv(variable, variables[variable]);
  const config = await folder.write(`${name}.json`, JSON.stringify({ judge }));
  const out = join(folder.path, name, 'out');
  const result = await runCli([
    'run',
    DATASET,
    '--judges',
    JUDGES,
    '--config',
    config,
    '--store',
    join(folder.path, name, 'store'),
    '--out',
    out,
  ]);
  expect(result.stderr).not.toMatch(/ {4}at /);
  expect(result.exitCode).toBe(0);
  return reportSchema.parse(JSON.parse(await readFile(join(out, 'report.json'), 'utf8')));
}

describe('the example dataset judged on each provider', () => {
  it('gives the same engine metrics through OpenAI, Azure OpenAI and Amazon Bedrock, each named in the judge line', async () => {
    // Act
    const viaOpenAi = await runOn('openai', { model: 'gpt-4o-mini' }, { OPENAI_API_KEY: 'sk-test-key', OPENAI_BASE_URL: openAi.baseUrl });
    const viaAzure = await runOn(
      'azure',
      { provider: 'azure', azure: { endpoint: azure.origin, deployment: 'judge-prod', api_version: '2024-10-21' } },
      { AZURE_OPENAI_API_KEY: AZURE_KEY },
    );
    const viaBedrock = await runOn(
      'bedrock',
      { provider: 'bedrock', bedrock: { region: 'us-east-1', model_id: BEDROCK_MODEL, endpoint: bedrock.endpoint } },
      { AWS_ACCESS_KEY_ID: ACCESS_KEY, AWS_SECRET_ACCESS_KEY: 'example-run-secret-access-key-0123456789' },
    );

    // Assess: the judged metrics are there, and equal on every provider
    const bm25 = viaOpenAi.engines.bm25 ?? {};
    expect(bm25['retrieval/llm_judged/chunk_relevance/precision/average']).toEqual(expect.any(Number));
    expect(bm25['response/llm_judged/correctness/rating/percentage']).toEqual(expect.any(Number));
    expect(viaAzure.engines).toEqual(viaOpenAi.engines);
    expect(viaBedrock.engines).toEqual(viaOpenAi.engines);
    expect([viaOpenAi, viaAzure, viaBedrock].map((report) => report.cases)).toEqual(
      Array.from({ length: 3 }, () => ({ total: 12, evaluated: 12, failed: 0, missing: 0, judge_failed: 0 })),
    );
    expect(viaOpenAi.judge).toMatch(/^LLM judge gpt-4o-mini at 127\.0\.0\.1:\d+, temperature 0, cached/);
    expect(viaAzure.judge).toMatch(
      /^LLM judge gpt-4o-mini on Azure OpenAI deployment judge-prod \(api-version 2024-10-21\), temperature 0, cached/,
    );
    expect(viaBedrock.judge).toMatch(
      new RegExp(
        `^LLM judge ${BEDROCK_MODEL.replace(/[.:]/g, '\\$&')} on Amazon Bedrock \\(us-east-1, endpoint 127\\.0\\.0\\.1:\\d+\\), temperature 0, cached`,
      ),
    );
    // Each provider's usage is priced under the model it asked
    expect(Object.keys(viaBedrock.judges.chunk_relevance?.models ?? {})).toEqual([BEDROCK_MODEL]);
    // Each server was asked on its own wire, and the same number of times
    expect(
      azure.log.every(
        (entry) =>
          entry.url.startsWith('/openai/deployments/judge-prod/chat/completions?api-version=2024-10-21') &&
          entry.headers['api-key'] === AZURE_KEY,
      ),
    ).toBe(true);
    expect(bedrock.log.every((entry) => entry.modelId === BEDROCK_MODEL && entry.body.toolConfig?.toolChoice?.tool !== undefined)).toBe(
      true,
    );
    // Bedrock through an HTTP/1.1 loopback server: every request came in HTTP/1.1
    expect(new Set(bedrock.log.map((entry) => entry.httpVersion))).toEqual(new Set(['1.1']));
    expect([azure.log.length, bedrock.log.length]).toEqual([openAi.log.length, openAi.log.length]);
  });
});
