import { afterEach, describe, expect, it } from 'vitest';
import { askEngines } from '../../../shared/engines/ask-engines.js';
import type { Engine, EngineResult } from '../../../shared/engines/engine.js';
import { engineOutputSchema } from '../../../shared/schema/eval-case.js';
import { buildEngine, buildEngines, farDeadline } from '../../support/engine-configs.js';
import { startRecordingServer, type RecordingServer, type ScriptedAnswer } from '../../support/recording-server.js';

const SEARCH_ANSWER = {
  took: 3,
  hits: [
    { id: 'doc-7', text: 'Rotate keys by creating a second key first.', score: 12.5 },
    { id: 'doc-2', text: 'Use roles instead of keys.', score: 9.25 },
  ],
  answer: 'Create a second key, switch, then delete the old one.',
};
const RESULTS = 'hits[].{doc_uri: id, content: text, score: score}';

let server: RecordingServer | undefined;
let engines: Engine[] = [];

async function serve(answer: (index: number) => ScriptedAnswer): Promise<RecordingServer> {
  server = await startRecordingServer((_, index) => answer(index));
  return server;
}

function track<T extends Engine | Engine[]>(built: T): T {
  engines.push(...(Array.isArray(built) ? built : [built]));
  return built;
}

const ask = (engine: Engine, query = 'rotate access keys', requestId = 'q1'): Promise<EngineResult> =>
  engine.call({ query, request_id: requestId }, farDeadline());

afterEach(async () => {
  await Promise.all(engines.map((engine) => engine.close()));
  engines = [];
  await server?.close();
  server = undefined;
});

describe('http connector against a local search service', () => {
  it('posts the rendered body and headers, and maps the JSON answer with JMESPath', async () => {
    // Prepare
    const service = await serve(() => ({ body: SEARCH_ANSWER }));
    const engine = track(
      buildEngine(
        {
          name: 'search',
          matrix: { b: [0.3] },
          http: {
            url: `${service.url}/search`,
            headers: { Authorization: 'Bearer {{env.SEARCH_TOKEN}}' },
            body: { q: '{{query}}', id: '{{request_id}}', b: '{{b}}', label: 'b={{b}}', flags: [true, '{{b}}'] },
            results: RESULTS,
            response: 'answer',
          },
        },
        { SEARCH_TOKEN: 'token-123456' },
      ),
    );

    // Act
    const result = await ask(engine);

    // Assess
    expect(engine.name).toBe('search@b=0.3');
    expect(result.ok && result.value.hits).toEqual([
      { doc_uri: 'doc-7', content: 'Rotate keys by creating a second key first.', score: 12.5 },
      { doc_uri: 'doc-2', content: 'Use roles instead of keys.', score: 9.25 },
    ]);
    expect(result.ok && result.value.response).toBe('Create a second key, switch, then delete the old one.');
    expect(result.ok && result.value.latency_ms).toBeGreaterThan(0);
    const [sent] = service.requests;
    expect(sent?.method).toBe('POST');
    expect(sent?.url).toBe('/search');
    expect(sent?.headers.authorization).toBe('Bearer token-123456');
    expect(sent?.headers['content-type']).toBe('application/json');
    // A string that is one placeholder keeps the value's type: 0.3 goes as a number, inside text as text.
    expect(JSON.parse(sent?.body ?? '')).toEqual({ q: 'rotate access keys', id: 'q1', b: 0.3, label: 'b=0.3', flags: [true, 0.3] });
  });

  it('sends GET with the query URL-encoded into the URL', async () => {
    // Prepare
    const service = await serve(() => ({ body: SEARCH_ANSWER }));
    const engine = track(
      buildEngine({
        name: 'get',
        matrix: { k: [20] },
        http: { url: `${service.url}/find?q={{query}}&k={{k}}`, method: 'GET', results: RESULTS },
      }),
    );

    // Act
    const result = await ask(engine, 'keys & roles? 100%');

    // Assess
    expect(result.ok).toBe(true);
    expect(service.requests[0]?.method).toBe('GET');
    expect(service.requests[0]?.url).toBe('/find?q=keys%20%26%20roles%3F%20100%25&k=20');
    expect(service.requests[0]?.body).toBe('');
  });

  it('retries a 503 as transient and answers with the next success', async () => {
    // Prepare
    const service = await serve((index) => (index === 0 ? { status: 503, body: { error: 'overloaded' } } : { body: SEARCH_ANSWER }));
    const engine = track(buildEngine({ name: 'flaky', retries: 2, http: { url: `${service.url}/search`, results: RESULTS } }));

    // Act
    const result = await ask(engine);

    // Assess
    expect(result.ok).toBe(true);
    expect(service.requests).toHaveLength(2);
  });

  it('gives up on a transient failure after its retries, saying how often it tried', async () => {
    // Prepare
    const service = await serve(() => ({ status: 429, body: { error: 'slow down' }, headers: { 'retry-after': '0' } }));
    const engine = track(buildEngine({ name: 'busy', retries: 1, http: { url: `${service.url}/search`, results: RESULTS } }));

    // Act
    const result = await ask(engine);

    // Assess
    expect(result).toEqual({
      ok: false,
      error: {
        kind: 'transient',
        message: `POST ${service.url}/search answered HTTP 429: {"error":"slow down"} (after 2 attempts)`,
        retry_after_ms: 0,
      },
    });
    expect(service.requests).toHaveLength(2);
  });

  it('does not retry a 404: it is permanent', async () => {
    // Prepare
    const service = await serve(() => ({ status: 404, body: 'no such index' }));
    const engine = track(buildEngine({ name: 'missing', retries: 3, http: { url: `${service.url}/nothing`, results: RESULTS } }));

    // Act
    const result = await ask(engine);

    // Assess
    expect(result).toEqual({
      ok: false,
      error: { kind: 'permanent', message: `POST ${service.url}/nothing answered HTTP 404: no such index` },
    });
    expect(service.requests).toHaveLength(1);
  });

  it.each([
    [
      'a list of bare ids',
      { hits: ['a', 'b'] },
      'results expression "hits[].{doc_uri: id, content: text, score: score}" gave a list that is not hits: item 1: doc_uri: expected a non-empty text or a number',
    ],
    ['no hits key at all', { results: [] }, 'gave null, expected a list of {doc_uri, content?, score?}'],
    [
      'a hit without an id',
      {
        hits: [
          { id: 'a', score: 1 },
          { text: 'no id', score: 2 },
        ],
      },
      'item 2: doc_uri: expected a non-empty text or a number',
    ],
    ['a score that is not a number', { hits: [{ id: 'a', score: 'high' }] }, 'item 1: score: expected a number'],
    ['a body that is not JSON', '<html>gateway</html>', 'answered HTTP 200 with a body that is not JSON: <html>gateway</html>'],
  ])('fails permanently, with a clear message, on %s', async (_, body, expected) => {
    // Prepare
    const service = await serve(() => ({ body }));
    const engine = track(buildEngine({ name: 'odd', retries: 2, http: { url: `${service.url}/search`, results: RESULTS } }));

    // Act
    const result = await ask(engine);

    // Assess
    expect(result.ok).toBe(false);
    expect(!result.ok && result.error.kind).toBe('permanent');
    expect(!result.ok && result.error.message).toContain(expected);
    expect(service.requests).toHaveLength(1);
  });

  it('times out a slow answer as transient and retries it', async () => {
    // Prepare
    const service = await serve((index) => (index === 0 ? { body: SEARCH_ANSWER, delayMs: 2_000 } : { body: SEARCH_ANSWER }));
    const engine = track(
      buildEngine({ name: 'slow', retries: 1, http: { url: `${service.url}/search`, results: RESULTS, timeout_ms: 150 } }),
    );

    // Act
    const started = performance.now();
    const result = await ask(engine);

    // Assess
    expect(result.ok).toBe(true);
    expect(service.requests).toHaveLength(2);
    expect(performance.now() - started).toBeLessThan(1_500);
  });

  it('reports a timeout that outlives the retries as transient', async () => {
    // Prepare
    const service = await serve(() => ({ body: SEARCH_ANSWER, delayMs: 2_000 }));
    const engine = track(
      buildEngine({ name: 'stuck', retries: 0, http: { url: `${service.url}/search`, results: RESULTS, timeout_ms: 100 } }),
    );

    // Act
    const result = await ask(engine);

    // Assess
    expect(result).toEqual({ ok: false, error: { kind: 'transient', message: 'timed out after 100 ms' } });
  });

  it('treats a refused connection as transient', async () => {
    // Prepare
    const service = await serve(() => ({ body: SEARCH_ANSWER }));
    const url = `${service.url}/search`;
    await service.close();
    server = undefined;
    const engine = track(buildEngine({ name: 'down', retries: 0, http: { url, results: RESULTS } }));

    // Act
    const result = await ask(engine);

    // Assess
    expect(result).toEqual({
      ok: false,
      error: { kind: 'transient', message: `POST ${url}: the connection was refused (ECONNREFUSED)` },
    });
  });

  it('keeps env values out of error messages even when the service echoes them', async () => {
    // Prepare
    const service = await serve((index) => ({ status: 401, body: { error: `bad token ${String(index)}: secret-abcdef` } }));
    const engine = track(
      buildEngine(
        {
          name: 'echo',
          http: { url: `${service.url}/search?key={{env.SEARCH_KEY}}`, headers: { 'x-api-key': '{{env.SEARCH_KEY}}' }, results: RESULTS },
        },
        { SEARCH_KEY: 'secret-abcdef' },
      ),
    );

    // Act
    const result = await ask(engine);

    // Assess
    expect(service.requests[0]?.url).toBe('/search?key=secret-abcdef');
    expect(!result.ok && result.error.message).toBe(
      `POST ${service.url}/search?key={{env.SEARCH_KEY}} answered HTTP 401: {"error":"bad token 0: [redacted]"}`,
    );
  });
});

describe('askEngines', () => {
  it('asks every variant of a sweep and returns ranked outputs and failures by engine name', async () => {
    // Prepare
    const service = await serve(() => ({ body: SEARCH_ANSWER }));
    const sweep = track(
      buildEngines({
        name: 'bm25',
        matrix: { b: [0.3, 0.75] },
        http: { url: `${service.url}/search`, body: { q: '{{query}}', b: '{{b}}' }, results: RESULTS },
      }),
    );
    const broken = track(buildEngine({ name: 'broken', http: { url: `${service.url}/search`, results: 'took' } }));

    // Act
    const asks = await askEngines([...sweep, broken], { query: 'keys', request_id: 'q9' }, { concurrency: 2, deadline: farDeadline() });

    // Assess
    expect(Object.keys(asks)).toEqual(['bm25@b=0.3', 'bm25@b=0.75', 'broken']);
    const output = asks['bm25@b=0.3'];
    expect(output?.ok && output.value.retrieved_context).toEqual([
      { doc_uri: 'doc-7', content: 'Rotate keys by creating a second key first.', score: 12.5, rank: 1 },
      { doc_uri: 'doc-2', content: 'Use roles instead of keys.', score: 9.25, rank: 2 },
    ]);
    // The output drops into a case as it is: it parses as an EngineOutput.
    expect(output?.ok && engineOutputSchema.safeParse(output.value).success).toBe(true);
    expect(asks.broken).toEqual({
      ok: false,
      error: {
        kind: 'permanent',
        message: `POST ${service.url}/search: results expression "took" gave a number, expected a list of {doc_uri, content?, score?} (check the expression against the answer's shape)`,
      },
    });
    expect(service.requests.map((request) => (JSON.parse(request.body) as { b?: number }).b).sort()).toEqual([0.3, 0.75, undefined]);
  });

  it('stops every call at the deadline', async () => {
    // Prepare
    const service = await serve(() => ({ body: SEARCH_ANSWER, delayMs: 5_000 }));
    const slow = track(
      buildEngines({
        name: 'slow',
        matrix: { b: [1, 2] },
        retries: 3,
        http: { url: `${service.url}/search`, body: { b: '{{b}}' }, results: RESULTS },
      }),
    );

    // Act
    const started = performance.now();
    const asks = await askEngines(slow, { query: 'keys', request_id: 'q9' }, { concurrency: 2, deadline: AbortSignal.timeout(200) });

    // Assess
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(Object.values(asks).map((ask) => !ask.ok && ask.error)).toEqual([
      { kind: 'transient', message: 'stopped at the deadline' },
      { kind: 'transient', message: 'stopped at the deadline' },
    ]);
  });
});
