import { afterEach, describe, expect, it, vi } from 'vitest';
import { chunkRelevance } from '../../../shared/judges/catalog/chunk-relevance.js';
import { parseRunConfig, configFileSchema } from '../../../shared/config/index.js';
import { checkJudgeCeiling } from '../../../shared/config/index.js';
import { chooseProvider } from '../../../shared/judge-client/judge-provider.js';
import { chooseJudgeBackend, JudgeSetupError } from '../../../shared/scoring/judge-backend.js';
import { MemoryStore } from '../../../shared/ports/memory-store.js';
import { startBedrockTestServer } from '../../support/bedrock-test-server.js';
import { catalogOracle } from '../../support/judge-oracle.js';
import { startOpenAiTestServer } from '../../support/openai-test-server.js';

/**
 * judge.provider: openai (default), azure with judge.azure, bedrock with
 * judge.bedrock; how the file is checked, how the environment and the file
 * choose the provider, the judge line that names provider and model, the
 * prices by model, and the cache that keeps providers apart.
 */
const AZURE = { endpoint: 'https://my-resource.openai.azure.com', deployment: 'judge-prod', api_version: '2024-10-21' };
const BEDROCK_MODEL = 'anthropic.claude-3-5-haiku-20241022-v1:0';
const BEDROCK = { region: 'us-east-1', model_id: BEDROCK_MODEL };
const config = (judge: object) => configFileSchema.parse({ judge });

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('the judge provider in the config file', () => {
  it.each([
    [{ provider: 'azure', azure: AZURE }],
    [{ provider: 'azure', azure: AZURE, model: 'gpt-4o' }],
    [{ provider: 'bedrock', bedrock: { ...BEDROCK, endpoint: 'https://vpce-0123.bedrock-runtime.us-east-1.vpce.amazonaws.com' } }],
    [{ provider: 'bedrock', bedrock: { ...BEDROCK, endpoint: 'http://localhost:4566', http_version: '2' } }],
  ])('accepts %j', (judge) => {
    expect(parseRunConfig({ judge }, 'assay.yaml')).toMatchObject({ ok: true });
  });

  it.each<[string, object, RegExp]>([
    [
      'an unknown provider',
      { provider: 'vertex' },
      /field "judge\.provider": expected one of openai, azure, bedrock, got "vertex" \(fix: use openai/,
    ],
    [
      'azure without its block',
      { provider: 'azure' },
      /field "judge\.azure": is missing: provider azure needs it \(fix: write an object with endpoint, deployment and api_version/,
    ],
    [
      'a bedrock block without provider bedrock',
      { bedrock: BEDROCK },
      /field "judge\.bedrock": applies only with provider bedrock, and the provider is openai \(fix: add provider: bedrock, or remove judge\.bedrock\)/,
    ],
    [
      'judge.model with provider bedrock',
      { provider: 'bedrock', bedrock: BEDROCK, model: 'gpt-4o' },
      /field "judge\.model": does not apply with provider bedrock: the model is judge\.bedrock\.model_id/,
    ],
    [
      'a base_url with provider azure',
      { provider: 'azure', azure: AZURE, base_url: 'https://gateway.example/v1' },
      /field "judge\.base_url": is an OpenAI-compatible server, and the provider is azure \(fix: remove it: with provider azure every judge runs on judge\.azure\.endpoint\)/,
    ],
    [
      'an Azure key in the file',
      { provider: 'azure', azure: { ...AZURE, api_key: 'k' } },
      /field "judge\.azure\.api_key": unknown key \(fix: remove it: the Azure OpenAI key is read only from the AZURE_OPENAI_API_KEY environment variable/,
    ],
    [
      'a region that is none',
      { provider: 'bedrock', bedrock: { ...BEDROCK, region: 'Virginia' } },
      /field "judge\.bedrock\.region": expected an AWS region such as us-east-1, got "Virginia" \(fix: give the AWS region of the model/,
    ],
    [
      'an HTTP version that is none',
      { provider: 'bedrock', bedrock: { ...BEDROCK, http_version: 'h2' } },
      /field "judge\.bedrock\.http_version": expected "1\.1" or "2" \(fix: give "1\.1" \(a proxy or gateway that speaks HTTP\/1\.1\) or "2"/,
    ],
  ])('rejects %s, saying what to write', (_case, judge, message) => {
    const checked = parseRunConfig({ judge }, 'assay.yaml');

    expect(checked.ok).toBe(false);
    expect(checked.ok ? '' : checked.error).toMatch(message);
  });

  it.each<[string | number | undefined, '1.1' | '2' | undefined]>([
    ['1.1', '1.1'],
    [1.1, '1.1'],
    ['2', '2'],
    [2, '2'],
    [undefined, undefined],
  ])('reads judge.bedrock.http_version %j, quoted or as YAML reads it unquoted, into the provider as %j', (written, httpVersion) => {
    // Prepare
    const bedrock = { ...BEDROCK, endpoint: 'http://localhost:4566', ...(written === undefined ? {} : { http_version: written }) };

    // Act
    const checked = parseRunConfig({ judge: { provider: 'bedrock', bedrock } }, 'assay.yaml');
    const choice = checked.ok ? chooseProvider(checked.value.judge, {}) : undefined;

    // Assess: undefined leaves the choice to the endpoint's scheme
    expect(choice).toEqual({
      ok: true,
      provider: { kind: 'bedrock', region: 'us-east-1', endpoint: 'http://localhost:4566', httpVersion },
      model: BEDROCK_MODEL,
    });
  });

  it("rejects a judge's own base_url under provider bedrock", () => {
    const checked = parseRunConfig(
      { judge: { provider: 'bedrock', bedrock: BEDROCK }, judge_settings: { safety: { base_url: 'http://127.0.0.1:8000/v1' } } },
      'assay.yaml',
    );

    expect(checked.ok ? '' : checked.error).toMatch(
      /field "judge_settings\.safety\.base_url": is an OpenAI-compatible server, and the provider is bedrock/,
    );
  });
});

describe('chooseJudgeBackend with a provider', () => {
  it.each<[string, object, Record<string, string>, string]>([
    [
      'an Azure deployment',
      { provider: 'azure', azure: AZURE },
      { AZURE_OPENAI_API_KEY: 'azure-key' },
      'LLM judge gpt-4o-mini on Azure OpenAI deployment judge-prod (api-version 2024-10-21), temperature 0, cached',
    ],
    [
      'a Bedrock model, with no key at all',
      { provider: 'bedrock', bedrock: BEDROCK },
      {},
      `LLM judge ${BEDROCK_MODEL} on Amazon Bedrock (us-east-1), temperature 0, cached`,
    ],
    [
      'Bedrock from the environment alone',
      {},
      { ASSAY_JUDGE_PROVIDER: 'bedrock', ASSAY_JUDGE_MODEL: 'amazon.nova-lite-v1:0', AWS_REGION: 'eu-west-1' },
      'LLM judge amazon.nova-lite-v1:0 on Amazon Bedrock (eu-west-1), temperature 0, cached',
    ],
    [
      'the file on Azure, OPENAI_API_KEY set but not used',
      { provider: 'azure', azure: AZURE },
      { OPENAI_API_KEY: 'sk-openai', AZURE_OPENAI_API_KEY: 'azure-key', ASSAY_JUDGE_MODEL: 'gpt-4o' },
      'LLM judge gpt-4o on Azure OpenAI deployment judge-prod (api-version 2024-10-21), temperature 0, cached',
    ],
  ])('names provider and model in the judge line: %s', (_case, judge, environment, summary) => {
    const choice = chooseJudgeBackend(config(judge), environment, new MemoryStore());

    expect(choice.backend.kind).toBe('llm');
    expect(choice.summary).toBe(summary);
  });

  it('runs the lexical judge, and says why, on Azure without AZURE_OPENAI_API_KEY', () => {
    const choice = chooseJudgeBackend(config({ provider: 'azure', azure: AZURE }), { OPENAI_API_KEY: 'sk-openai' }, undefined);

    expect(choice.backend.kind).toBe('lexical');
    expect(choice.summary).toBe('lexical judge (non-LLM approximations): AZURE_OPENAI_API_KEY is not set');
  });

  it.each<[string, object, Record<string, string>, string]>([
    [
      'an unknown ASSAY_JUDGE_PROVIDER',
      {},
      { ASSAY_JUDGE_PROVIDER: 'vertex', OPENAI_API_KEY: 'k' },
      'ASSAY_JUDGE_PROVIDER is "vertex"; expected one of openai, azure, bedrock',
    ],
    [
      'Bedrock without a region',
      {},
      { ASSAY_JUDGE_PROVIDER: 'bedrock', ASSAY_JUDGE_MODEL: BEDROCK_MODEL },
      'the judge provider is bedrock, and no region is given: set judge.bedrock.region, or AWS_REGION',
    ],
    [
      'Azure without its deployment',
      {},
      { ASSAY_JUDGE_PROVIDER: 'azure', AZURE_OPENAI_API_KEY: 'k' },
      'the judge provider is azure, and the config has no judge.azure: give it {endpoint, deployment, api_version}',
    ],
  ])('refuses %s before any call', (_case, judge, environment, message) => {
    expect(() => chooseJudgeBackend(config(judge), environment, undefined)).toThrow(new JudgeSetupError(message));
  });

  it('keeps the answers of each provider apart in one cache, for one model name', async () => {
    // Prepare: one store; the same judgment asked on OpenAI, then on Azure, then on Bedrock
    const store = new MemoryStore();
    const openAi = await startOpenAiTestServer({ oracle: catalogOracle });
    const azure = await startOpenAiTestServer({ oracle: catalogOracle, azureKey: 'azure-key' });
    const bedrock = await startBedrockTestServer({ oracle: catalogOracle, accessKeyId: 'AKIDPROVIDERCACHE000' });
    vi.stubEnv('AWS_ACCESS_KEY_ID', 'AKIDPROVIDERCACHE000');
    vi.stubEnv('AWS_SECRET_ACCESS_KEY', 'provider-cache-test-secret-key-0123456789');
    const inputs = { request: 'how do I rotate keys?', chunk: 'Rotate access keys: rotate, rotate.' };
    const backends = [
      chooseJudgeBackend(config({ model: 'judge-model' }), { OPENAI_API_KEY: 'k', OPENAI_BASE_URL: openAi.baseUrl }, store).backend,
      chooseJudgeBackend(
        config({ provider: 'azure', model: 'judge-model', azure: { ...AZURE, endpoint: azure.origin } }),
        { AZURE_OPENAI_API_KEY: 'azure-key' },
        store,
      ).backend,
      chooseJudgeBackend(
        config({ provider: 'bedrock', bedrock: { region: 'us-east-1', model_id: 'judge-model', endpoint: bedrock.endpoint } }),
        {},
        store,
      ).backend,
    ];
    try {
      // Act
      const outcomes = [];
      for (const backend of backends) if (backend.kind === 'llm') outcomes.push(await backend.service.judge(chunkRelevance, inputs));

      // Assess: each provider was asked once; no answer came from another's cache entry
      expect(outcomes.map((outcome) => outcome.ok && outcome.cached)).toEqual([false, false, false]);
      expect([openAi.log.length, azure.log.length, bedrock.log.length]).toEqual([1, 1, 1]);
    } finally {
      await Promise.all([openAi.close(), azure.close(), bedrock.close()]);
    }
  });
});

describe('judge prices by model on each provider', () => {
  const prices = (model: string) => ({ currency: 'USD', models: { [model]: { input_per_million: 0.8, output_per_million: 4 } } });

  it('prices a Bedrock run by its model id', () => {
    const priced = parseRunConfig(
      { judge: { provider: 'bedrock', bedrock: BEDROCK, prices: prices(BEDROCK_MODEL) }, run: { max_judge_cost: 5 } },
      'assay.yaml',
    );

    expect(priced).toMatchObject({ ok: true });
  });

  it('names the Bedrock model id that has no price, never gpt-4o-mini', () => {
    const unpriced = configFileSchema.parse({
      judge: { provider: 'bedrock', bedrock: BEDROCK, prices: prices('gpt-4o-mini') },
      run: { max_judge_cost: 5 },
    });

    const problems = checkJudgeCeiling(unpriced, 'assay.yaml', {});

    expect(problems).toEqual([expect.stringContaining(`has no price for the model "${BEDROCK_MODEL}"`)]);
  });
});
