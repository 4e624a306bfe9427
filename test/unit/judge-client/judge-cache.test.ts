import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { chunkRelevance } from '../../../shared/judges/catalog/chunk-relevance.js';
import { canonicalBaseUrl, JudgeCache } from '../../../shared/judge-client/judge-cache.js';
import { JudgeClient } from '../../../shared/judge-client/judge-client.js';
import { JudgeService, type JudgeServiceSettings } from '../../../shared/scoring/judge-service.js';
import { MemoryStore } from '../../../shared/ports/memory-store.js';
import type { ObjectStore } from '../../../shared/ports/object-store.js';
import { TEST_CLIENT_SETTINGS } from '../../support/judge-clients.js';
import { startOpenAiTestServer, type OpenAiTestServer } from '../../support/openai-test-server.js';

/**
 * What the judge cache keys on and keeps: the judge server's whole base URL,
 * the model asked for (with the model that answered kept for audit), a sample
 * number, and nothing at all for sampled answers unless asked; a store that
 * fails to write loses the entry, never the verdict.
 */
let server: OpenAiTestServer;
beforeEach(async () => {
  server = await startOpenAiTestServer({
    oracle: () => ({ json: { rationale: 'it answers the request', rating: 'yes' }, reportedModel: 'judge-model-2024-08-06' }),
  });
});
afterEach(async () => {
  await server.close();
});

const inputs = { request: 'how do I rotate keys?', chunk: 'Rotate access keys from the IAM console.' };

function serviceOver(
  store: ObjectStore | undefined,
  settings: Partial<JudgeServiceSettings> = {},
  cache = new JudgeCache(store, 100, () => {}),
): JudgeService {
  const model = settings.model ?? 'judge-model';
  const client = new JudgeClient({ ...TEST_CLIENT_SETTINGS, baseUrl: server.baseUrl, model, temperature: settings.temperature ?? 0 });
  return new JudgeService(client, cache, {
    provider: 'openai',
    baseUrl: 'https://gateway.example/v1',
    model,
    temperature: 0,
    cacheSampled: false,
    concurrency: 4,
    ...settings,
  });
}

class FailingWrites extends MemoryStore {
  override async put(): Promise<{ written: boolean }> {
    throw new Error('SlowDown: Please reduce your request rate.');
  }
}

describe('the judge cache key', () => {
  it.each([
    [
      'https://user:pass@gateway.example:8443/openai/deployments/judge/?api-key=secret#top',
      'https://gateway.example:8443/openai/deployments/judge',
    ],
    ['http://localhost:11434/v1/', 'http://localhost:11434/v1'],
    [undefined, 'https://api.openai.com/v1'],
  ])('reads %s as %s: scheme, host, port and path, never user info, query or fragment', (url, expected) => {
    expect(canonicalBaseUrl(url)).toBe(expected);
  });

  it('keeps two deployments on one host apart', async () => {
    const store = new MemoryStore();
    await serviceOver(store, { baseUrl: 'https://gateway.example/openai/deployments/a' }).judge(chunkRelevance, inputs);
    const other = await serviceOver(store, { baseUrl: 'https://gateway.example/openai/deployments/b' }).judge(chunkRelevance, inputs);
    expect(other).toMatchObject({ ok: true, cached: false });
    expect(server.answered()).toBe(2);
  });

  it('keeps the model that answered in the entry, and never serves it for another model asked for', async () => {
    // Prepare: both requested models are answered by the same dated model
    const store = new MemoryStore();
    await serviceOver(store, { model: 'judge-model' }).judge(chunkRelevance, inputs);

    // Act
    const otherModel = await serviceOver(store, { model: 'judge-model-2024-08-06' }).judge(chunkRelevance, inputs);

    // Assess
    expect(otherModel).toMatchObject({ cached: false });
    const entries = [];
    for await (const key of store.list('cache/judges/')) entries.push(JSON.parse(new TextDecoder().decode(await store.get(key))));
    expect(entries.map((entry) => [entry.model, entry.reported_model])).toEqual(
      expect.arrayContaining([
        ['judge-model', 'judge-model-2024-08-06'],
        ['judge-model-2024-08-06', 'judge-model-2024-08-06'],
      ]),
    );
  });
});

describe('answers sampled at a temperature above 0', () => {
  it('are drawn anew for every judgment by default', async () => {
    const judges = serviceOver(new MemoryStore(), { temperature: 0.7 });
    await judges.judge(chunkRelevance, inputs);
    expect(await judges.judge(chunkRelevance, inputs)).toMatchObject({ ok: true, cached: false });
    expect(server.answered()).toBe(2);
  });

  it('are cached per sample number with judge.cache_sampled', async () => {
    const judges = serviceOver(new MemoryStore(), { temperature: 0.7, cacheSampled: true });
    await judges.judge(chunkRelevance, inputs, { sample: 0 });
    const again = await judges.judge(chunkRelevance, inputs);
    const secondSample = await judges.judge(chunkRelevance, inputs, { sample: 1 });
    expect([again.ok && again.cached, secondSample.ok && secondSample.cached]).toEqual([true, false]);
    expect(server.answered()).toBe(2);
  });
});

describe('a store that fails to write', () => {
  it('still returns the paid verdict, and counts and reports the failure', async () => {
    // Prepare
    const failures: string[] = [];
    const cache = new JudgeCache(new FailingWrites(), 100, (_key, error) => failures.push(String(error)));
    const judges = serviceOver(undefined, {}, cache);

    // Act
    const outcome = await judges.judge(chunkRelevance, inputs);

    // Assess
    expect(outcome).toMatchObject({ ok: true, verdict: { rating: 'yes' } });
    expect(cache.writeFailures).toBe(1);
    expect(failures).toEqual(['Error: SlowDown: Please reduce your request rate.']);
  });
});
