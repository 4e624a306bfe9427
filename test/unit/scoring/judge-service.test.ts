import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { chunkRelevance } from '../../../shared/judges/catalog/chunk-relevance.js';
import { JudgeCache, cacheKey, canonicalBaseUrl } from '../../../shared/judge-client/judge-cache.js';
import { JudgeClient } from '../../../shared/judge-client/judge-client.js';
import { JudgeService } from '../../../shared/scoring/judge-service.js';
import { LocalFolderStore } from '../../../shared/ports/local-folder-store.js';
import type { ObjectStore } from '../../../shared/ports/object-store.js';
import { TEST_CLIENT_SETTINGS } from '../../support/judge-clients.js';
import { startOpenAiTestServer, type Oracle, type OpenAiTestServer } from '../../support/openai-test-server.js';
import { createTempFolder, type TempFolder } from '../../support/temp-folder.js';

let server: OpenAiTestServer;
let folder: TempFolder;
const relevant: Oracle = () => ({ json: { rationale: 'it answers the request', rating: 'yes' } });

beforeEach(async () => {
  server = await startOpenAiTestServer({ oracle: relevant });
  folder = await createTempFolder();
});
afterEach(async () => {
  await server.close();
  await folder.remove();
});

/** A fresh service, as a new run would build it, over the given store (undefined: --no-cache). */
function service(store: ObjectStore | undefined, overrides: { model?: string; apiKey?: string } = {}): JudgeService {
  const model = overrides.model ?? 'judge-model';
  const client = new JudgeClient({
    ...TEST_CLIENT_SETTINGS,
    baseUrl: server.baseUrl,
    apiKey: overrides.apiKey ?? 'key-1',
    model,
    maxRetries: 3,
  });
  return new JudgeService(client, new JudgeCache(store), {
    provider: 'openai',
    baseUrl: canonicalBaseUrl(server.baseUrl),
    model,
    temperature: 0,
    cacheSampled: false,
    concurrency: 4,
  });
}

const inputs = { request: 'how do I rotate keys?', chunk: 'Rotate access keys from the IAM console.' };

describe('JudgeService with the cache', () => {
  it('turns an answer into a verdict and records usage', async () => {
    const judges = service(new LocalFolderStore(folder.path));
    const outcome = await judges.judge(chunkRelevance, inputs);
    expect(outcome).toMatchObject({ ok: true, cached: false, verdict: { rating: 'yes', value: 1, rationale: 'it answers the request' } });
    expect(outcome.cost).toMatchObject({ cached: false, retries: 0 });
    expect(judges.usage().chunk_relevance).toMatchObject({ calls: 1, cache_hits: 0, retries: 0, errors: 0 });
    expect(judges.usage().chunk_relevance?.input_tokens).toBeGreaterThan(0);
  });

  it('records who answered each call, as the server named it, and no one for a cache hit', async () => {
    // Prepare: the server names a dated model and its backend, as OpenAI does
    server.setOracle(() => ({
      json: { rationale: 'on topic', rating: 'yes' },
      reportedModel: 'judge-model-2026-01-01',
      systemFingerprint: 'fp_night1',
    }));
    const store = new LocalFolderStore(folder.path);
    const first = service(store);
    const second = service(store);

    // Act: two calls in one run, then the first of them again from the cache in the next
    await first.judge(chunkRelevance, inputs);
    await first.judge(chunkRelevance, { ...inputs, chunk: 'Another passage.' });
    const cached = await second.judge(chunkRelevance, inputs);

    // Assess
    expect(first.usage().chunk_relevance?.answered_by).toEqual([
      { model: 'judge-model-2026-01-01', system_fingerprint: 'fp_night1', calls: 2 },
    ]);
    expect(cached.cost.answeredBy).toBeUndefined();
    expect(second.usage().chunk_relevance?.answered_by).toBeUndefined();
  });

  it('names the model asked when the server names none', async () => {
    // Prepare: an answer without a model, as some OpenAI-compatible servers send it
    server.setOracle(() => ({ json: { rationale: 'on topic', rating: 'yes' }, reportedModel: '' }));

    // Act
    const outcome = await service(undefined).judge(chunkRelevance, inputs);

    // Assess
    expect(outcome.cost.answeredBy).toEqual({ model: 'judge-model' });
  });

  it('judges afresh, past a cache that holds the answer, and stores nothing, when asked uncached (a canary judgment)', async () => {
    // Prepare: a first run fills the store
    const store = new LocalFolderStore(folder.path);
    await service(store).judge(chunkRelevance, inputs);
    const second = service(store);

    // Act
    const uncached = await second.judge(chunkRelevance, { ...inputs, chunk: 'A passage not seen before.' }, { uncached: true });
    const fresh = await second.judge(chunkRelevance, inputs, { uncached: true });
    const cached = await second.judge(chunkRelevance, inputs);

    // Assess: both uncached judgments were calls; the cache still answers the first, and never learnt the second
    expect([uncached.ok && uncached.cached, fresh.ok && fresh.cached, cached.ok && cached.cached]).toEqual([false, false, true]);
    expect(server.answered()).toBe(3);
    const again = await service(store).judge(chunkRelevance, { ...inputs, chunk: 'A passage not seen before.' });
    expect(again.ok && again.cached).toBe(false);
  });

  it('makes no call in a second run over the same store', async () => {
    // Prepare: a first run fills the store
    const store = new LocalFolderStore(folder.path);
    await service(store).judge(chunkRelevance, inputs);

    // Act: a second run, with a new service, memory cache and client
    const second = service(new LocalFolderStore(folder.path));
    const outcome = await second.judge(chunkRelevance, inputs);

    // Assess
    expect(outcome).toMatchObject({ ok: true, cached: true, verdict: { rating: 'yes' } });
    expect(server.answered()).toBe(1);
    expect(second.usage().chunk_relevance).toMatchObject({ calls: 0, cache_hits: 1 });
  });

  it("checks an answer read back from the store against the judge's schema again, and counts it as a failed cache hit", async () => {
    // Prepare: a first run stores its answer, which is then changed in the store to one the judge's schema refuses
    const store = new LocalFolderStore(folder.path);
    await service(store).judge(chunkRelevance, inputs);
    const keys: string[] = [];
    for await (const key of store.list('cache/judges/')) keys.push(key);
    const key = keys[0] as string;
    const entry = JSON.parse(new TextDecoder().decode(await store.get(key))) as Record<string, unknown>;
    await store.put(key, JSON.stringify({ ...entry, output: { rationale: 'changed', rating: 'perhaps' } }));

    // Act: a second run reads it back
    const second = service(new LocalFolderStore(folder.path));
    const outcome = await second.judge(chunkRelevance, inputs);

    // Assess
    expect(outcome).toMatchObject({
      ok: false,
      transient: false,
      error: expect.stringMatching(/^cached answer no longer matches the judge's schema: rating: /),
    });
    expect(second.usage().chunk_relevance).toMatchObject({ calls: 0, cache_hits: 1, errors: 1 });
    expect(server.answered()).toBe(1);
  });

  it('makes one call for identical judgments in flight at the same time, counting the others as shared in the run', async () => {
    const judges = service(new LocalFolderStore(folder.path));
    const outcomes = await Promise.all([1, 2, 3, 4, 5].map(() => judges.judge(chunkRelevance, inputs)));
    expect(outcomes.every((outcome) => outcome.ok)).toBe(true);
    expect(server.answered()).toBe(1);
    expect(judges.usage().chunk_relevance).toMatchObject({ calls: 1, cache_hits: 0, shared_in_run: 4, errors: 0 });
  });

  it('never caches an error: the next run asks again', async () => {
    // Prepare: a judge that answers garbage
    server.setOracle(() => ({ text: 'I think so!!' }));
    const store = new LocalFolderStore(folder.path);
    const failed = await service(store).judge(chunkRelevance, inputs);
    expect(failed).toMatchObject({ ok: false, transient: false });

    // Act: the judge recovers
    server.setOracle(relevant);
    const retried = await service(store).judge(chunkRelevance, inputs);

    // Assess
    expect(retried).toMatchObject({ ok: true, cached: false });
  });

  it('keys the cache on the model, and not on the API key', async () => {
    const store = new LocalFolderStore(folder.path);
    await service(store, { model: 'model-a' }).judge(chunkRelevance, inputs);
    expect(await service(store, { model: 'model-b' }).judge(chunkRelevance, inputs)).toMatchObject({ cached: false });
    expect(await service(store, { model: 'model-a', apiKey: 'key-2' }).judge(chunkRelevance, inputs)).toMatchObject({ cached: true });
    expect(server.answered()).toBe(2);
  });

  it('asks again for every judgment with the cache off', async () => {
    await service(undefined).judge(chunkRelevance, inputs);
    await service(undefined).judge(chunkRelevance, inputs);
    expect(server.answered()).toBe(2);
  });

  it('stores entries under cache/judges/ with no secret in the key or the entry', async () => {
    const store = new LocalFolderStore(folder.path);
    await service(store, { apiKey: 'sk-very-secret' }).judge(chunkRelevance, inputs);
    const keys: string[] = [];
    for await (const key of store.list('')) keys.push(key);
    expect(keys).toHaveLength(1);
    expect(keys[0]).toMatch(/^cache\/judges\/[0-9a-f]{2}\/[0-9a-f]{64}\.json$/);
    const entry = new TextDecoder().decode(await store.get(keys[0] as string));
    expect(entry).not.toContain('sk-very-secret');
    expect(JSON.parse(entry)).toMatchObject({ judge: 'chunk_relevance@1', model: 'judge-model', output: { rating: 'yes' } });
  });

  it('changes the key with every part that changes the answer', () => {
    const base = {
      provider: 'openai' as const,
      baseUrl: 'https://judge.example/v1',
      model: 'm',
      judgeId: 'j',
      judgeVersion: '1',
      messages: [{ role: 'user' as const, content: 'x' }],
      temperature: 0,
      outputSchema: { type: 'object' },
      sample: 0,
    };
    const variants = [
      { baseUrl: 'https://judge.example/v2' },
      { baseUrl: 'https://other.example/v1' },
      { sample: 1 },
      { model: 'm2' },
      { judgeId: 'k' },
      { judgeVersion: '2' },
      { messages: [{ role: 'user' as const, content: 'y' }] },
      { temperature: 0.5 },
      { outputSchema: { type: 'string' } },
      { provider: 'azure' as const },
      { provider: 'bedrock' as const },
    ];
    const keys = new Set([cacheKey(base), ...variants.map((variant) => cacheKey({ ...base, ...variant }))]);
    expect(keys.size).toBe(variants.length + 1);
  });

  it('keeps the keys of an OpenAI-compatible server as they were before providers, so stored entries stay valid', () => {
    const parts = {
      provider: 'openai' as const,
      baseUrl: 'https://judge.example/v1',
      model: 'm',
      judgeId: 'j',
      judgeVersion: '1',
      messages: [{ role: 'user' as const, content: 'x' }],
      temperature: 0,
      outputSchema: { type: 'object' },
      sample: 0,
    };

    // The key the cache gave these parts before judge.provider existed.
    expect(cacheKey(parts)).toBe('12ece493144b89042dd0509b28204c3db7570cdfb11f96f813975d6ac4495d40');
  });
});
