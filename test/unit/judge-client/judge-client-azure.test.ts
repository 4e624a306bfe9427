import { afterEach, describe, expect, it, vi } from 'vitest';
import { JudgeClient, type JudgeClientSettings } from '../../../shared/judge-client/judge-client.js';
import { answerWith, judgeRequest, TEST_CLIENT_SETTINGS } from '../../support/judge-clients.js';
import { startOpenAiTestServer, type FaultPlan, type OpenAiTestServer, type Oracle } from '../../support/openai-test-server.js';

/**
 * The judge client on an Azure OpenAI deployment: the same chat completions
 * under /openai/deployments/{deployment}, with an api-version and the key in
 * an `api-key` header, through the openai SDK's AzureOpenAI client; and the
 * judge client's behaviour (structured output, refusals, cut answers, content
 * filters, retries, refused keys, deadlines) on that wire.
 */
const AZURE_KEY = 'azure-key-0123456789abcdef';
const verdict = { rationale: 'on topic', rating: 'yes' };

let server: OpenAiTestServer | undefined;
afterEach(async () => {
  vi.unstubAllEnvs();
  await server?.close();
  server = undefined;
});

async function startAzureClient(
  oracle: Oracle,
  faults: FaultPlan = {},
  settings: Partial<JudgeClientSettings> = {},
): Promise<{ client: JudgeClient; server: OpenAiTestServer }> {
  server = await startOpenAiTestServer({ oracle, faults, azureKey: AZURE_KEY });
  const azure = { endpoint: `${server.origin}/`, deployment: 'judge-prod', apiVersion: '2024-10-21' };
  const client = new JudgeClient({
    ...TEST_CLIENT_SETTINGS,
    baseUrl: undefined,
    apiKey: AZURE_KEY,
    model: 'gpt-4o-mini',
    azure,
    ...settings,
  });
  return { client, server };
}

describe('JudgeClient on Azure OpenAI', () => {
  it('asks the deployment with the api-version and the api-key header, for the JSON schema', async () => {
    // Prepare: OPENAI_BASE_URL set in the environment must not pull the client elsewhere
    vi.stubEnv('OPENAI_BASE_URL', 'http://127.0.0.1:9/v1');
    const started = await startAzureClient(answerWith(verdict));

    // Act
    const completion = await started.client.complete(judgeRequest);

    // Assess
    expect(completion).toMatchObject({ ok: true, output: verdict, retries: 0 });
    const [sent] = started.server.log;
    expect(sent?.url).toBe('/openai/deployments/judge-prod/chat/completions?api-version=2024-10-21');
    expect(sent?.headers['api-key']).toBe(AZURE_KEY);
    expect(sent?.authorization).toBeUndefined();
    expect(sent?.request.response_format).toMatchObject({ type: 'json_schema', json_schema: { name: 'chunk_relevance' } });
    expect(completion.usage.inputTokens).toBeGreaterThan(0);
  });

  it('reports a refusal without a repair request', async () => {
    // Prepare
    const started = await startAzureClient(() => ({ refusal: 'I cannot judge this.' }));

    // Act
    const completion = await started.client.complete(judgeRequest);

    // Assess
    expect(completion).toMatchObject({ ok: false, transient: false, error: 'the judge model refused to answer: I cannot judge this.' });
    expect(started.server.log).toHaveLength(1);
  });

  it('reports an answer cut at max_tokens without a repair request', async () => {
    // Prepare
    const started = await startAzureClient(() => ({ text: '{"rationale": "the passage', finishReason: 'length' }), {}, { maxTokens: 64 });

    // Act
    const completion = await started.client.complete(judgeRequest);

    // Assess
    expect(completion).toMatchObject({ ok: false, transient: false, error: 'the answer was cut at max_tokens=64; raise judge.max_tokens' });
    expect(started.server.log).toHaveLength(1);
  });

  it.each<[string, Oracle, FaultPlan]>([
    ['a prompt the content filter refuses (400 content_filter)', answerWith(verdict), { firstFaults: ['content-filter'] }],
    ['an answer the content filter stops (finish_reason content_filter)', () => ({ text: '', finishReason: 'content_filter' }), {}],
  ])('fails only that judgment, not transient, for %s', async (_case, oracle, faults) => {
    // Prepare
    const started = await startAzureClient(oracle, faults);

    // Act
    const completion = await started.client.complete(judgeRequest);

    // Assess
    expect(completion).toMatchObject({
      ok: false,
      transient: false,
      error: expect.stringMatching(/content (management )?polic|content filter/i),
    });
    expect(started.server.log).toHaveLength(1);
  });

  it('retries a 429 within the judgment', async () => {
    // Prepare
    const started = await startAzureClient(answerWith(verdict), { firstFaults: ['429'] });

    // Act
    const completion = await started.client.complete(judgeRequest);

    // Assess
    expect(completion).toMatchObject({ ok: true, output: verdict, retries: 1 });
    expect(started.server.log.map((entry) => entry.outcome)).toEqual(['429', 'answer']);
  });

  it('stops every later call after the resource refuses the key, naming AZURE_OPENAI_API_KEY', async () => {
    // Prepare
    const started = await startAzureClient(answerWith(verdict), {}, { apiKey: 'wrong-azure-key-value' });

    // Act
    const first = await started.client.complete(judgeRequest);
    const second = await started.client.complete(judgeRequest);

    // Assess: one request in all, the 401 not retried
    expect(first).toMatchObject({
      ok: false,
      transient: false,
      error: expect.stringMatching(
        /^the judge server refused the credentials \(HTTP 401: Access denied .*\); check AZURE_OPENAI_API_KEY and judge\.azure/,
      ),
    });
    expect(second).toMatchObject({ ok: false, error: first.ok ? '' : first.error });
    expect(started.server.log).toHaveLength(1);
  });

  it('stops a judgment at its deadline as a transient failure', async () => {
    // Prepare
    const started = await startAzureClient(answerWith(verdict), { slow: 1, slowMs: 1_000 }, { callDeadlineMs: 300 });
    const startedAt = Date.now();

    // Act
    const completion = await started.client.complete(judgeRequest);

    // Assess
    expect(completion).toMatchObject({ ok: false, transient: true, error: expect.stringMatching(/^the judgment ran out of time/) });
    expect(Date.now() - startedAt).toBeLessThan(900);
  });
});
