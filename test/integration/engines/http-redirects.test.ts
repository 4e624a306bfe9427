import { afterEach, describe, expect, it } from 'vitest';
import type { Engine, EngineResult } from '../../../shared/engines/engine.js';
import { buildEngine, farDeadline } from '../../support/engine-configs.js';
import { startRecordingServer, type RecordedRequest, type RecordingServer, type ScriptedAnswer } from '../../support/recording-server.js';

/**
 * Redirects of an http engine, against real loopback servers: two servers on
 * different ports are two origins, so a redirect from one to the other is a
 * redirect to another origin, exactly as to another host.
 */

const ANSWER = { hits: [{ id: 'doc-1', score: 2 }] };
const RESULTS = 'hits[].{doc_uri: id, score: score}';
const ENV = { SEARCH_TOKEN: 'tok-Q8w7E6r5T4y3' };

let servers: RecordingServer[] = [];
let engine: Engine | undefined;

async function serve(answer: (request: RecordedRequest, index: number) => ScriptedAnswer): Promise<RecordingServer> {
  const server = await startRecordingServer(answer);
  servers.push(server);
  return server;
}

const redirect = (status: number, location: string): ScriptedAnswer => ({ status, headers: { location }, body: 'moved' });

function ask(url: string, method: 'POST' | 'GET' = 'POST'): Promise<EngineResult> {
  engine = buildEngine(
    {
      name: 'moved',
      retries: 2,
      http: {
        url,
        method,
        headers: { Authorization: 'Bearer {{env.SEARCH_TOKEN}}', 'x-api-key': '{{env.SEARCH_TOKEN}}' },
        results: RESULTS,
      },
    },
    ENV,
  );
  return engine.call({ query: 'rotate keys', request_id: 'q1' }, farDeadline());
}

afterEach(async () => {
  await engine?.close();
  engine = undefined;
  await Promise.all(servers.map((server) => server.close()));
  servers = [];
});

describe('an http engine that redirects', () => {
  it('follows a 307 within its origin, sending the same method, body and headers again', async () => {
    // Prepare
    const service = await serve((request) => (request.url === '/old' ? redirect(307, '/new') : { body: ANSWER }));

    // Act
    const result = await ask(`${service.url}/old`);

    // Assess
    expect(result.ok && result.value.hits).toEqual([{ doc_uri: 'doc-1', score: 2 }]);
    const [first, second] = service.requests;
    expect(second).toMatchObject({ method: 'POST', url: '/new', body: first?.body });
    expect(second?.headers['x-api-key']).toBe(ENV.SEARCH_TOKEN);
    expect(second?.headers.authorization).toBe(`Bearer ${ENV.SEARCH_TOKEN}`);
  });

  it('turns a POST into a GET without a body on a 303, as fetch does', async () => {
    // Prepare
    const service = await serve((request) => (request.url === '/search' ? redirect(303, '/results/7') : { body: ANSWER }));

    // Act
    const result = await ask(`${service.url}/search`);

    // Assess
    expect(result.ok).toBe(true);
    expect(service.requests[1]).toMatchObject({ method: 'GET', url: '/results/7', body: '' });
    expect(service.requests[1]?.headers['content-type']).toBeUndefined();
  });

  it.each([307, 302])('refuses a %d to another origin as a permanent error naming it, and sends that origin nothing', async (status) => {
    // Prepare
    const elsewhere = await serve(() => ({ body: { hits: [{ id: 'planted', score: 99 }] } }));
    const service = await serve(() => redirect(status, `${elsewhere.url}/collect?from=assay`));

    // Act
    const result = await ask(`${service.url}/search`);

    // Assess
    expect(result).toEqual({
      ok: false,
      error: {
        kind: 'permanent',
        message: `POST ${service.url}/search: the service redirected (HTTP ${status}) to another origin, ${elsewhere.url}; assay does not follow it, so the engine's headers never leave ${service.url} (fix: set url to the address it redirects to)`,
      },
    });
    expect(elsewhere.requests).toEqual([]);
    expect(service.requests).toHaveLength(1);
  });

  it('stops a redirect loop as a permanent error', async () => {
    // Prepare
    const service = await serve((request) => redirect(302, request.url === '/a' ? '/b' : '/a'));

    // Act
    const result = await ask(`${service.url}/a`, 'GET');

    // Assess
    expect(result).toEqual({
      ok: false,
      error: { kind: 'permanent', message: `GET ${service.url}/a: the service redirects in a loop (/a -> /b -> /a)` },
    });
    expect(service.requests).toHaveLength(2);
  });

  it('gives up after 5 redirects as a permanent error', async () => {
    // Prepare
    const service = await serve((_, index) => redirect(301, `/hop-${index + 1}`));

    // Act
    const result = await ask(`${service.url}/hop-0`, 'GET');

    // Assess
    expect(result).toEqual({
      ok: false,
      error: { kind: 'permanent', message: `GET ${service.url}/hop-0: the service redirected more than 5 times (last to /hop-6)` },
    });
    expect(service.requests).toHaveLength(6);
  });

  it.each(['ftp://127.0.0.1/results', 'file:///etc/passwd', 'javascript:alert(1)'])(
    'refuses a redirect to %s as a permanent error',
    async (location) => {
      // Prepare
      const service = await serve(() => redirect(302, location));

      // Act
      const result = await ask(`${service.url}/search`);

      // Assess
      expect(result.ok).toBe(false);
      expect(!result.ok && result.error).toEqual({
        kind: 'permanent',
        message: `POST ${service.url}/search: the service redirected (HTTP 302) to a ${new URL(location).protocol} URL; only http and https are followed`,
      });
      expect(service.requests).toHaveLength(1);
    },
  );
});
