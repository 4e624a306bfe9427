import { gzipSync } from 'node:zlib';
import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import type { Engine, EngineResult } from '../../../shared/engines/engine.js';
import { buildEngine, farDeadline } from '../../support/engine-configs.js';
import { startRawHttpServer, type RawHttpServer } from '../../support/raw-http-server.js';

/**
 * Network faults on an http engine's calls, made by a real loopback server
 * that cuts its own sockets: each is a transient failure, retried within
 * the call, counted in the attempts, and named in the message when the
 * retries run out.
 */

const ANSWER = JSON.stringify({ hits: [{ id: 'doc-7', score: 3 }] });
/** The start of an answer, after which the server cuts the connection. */
const PARTIAL = '{"hits": [{"id": "doc-';

let server: RawHttpServer | undefined;
let engine: Engine | undefined;
afterEach(async () => {
  await engine?.close();
  engine = undefined;
  await server?.close();
  server = undefined;
});

function ask(url: string, retries: number): Promise<EngineResult> {
  engine = buildEngine({ name: 'cut', retries, http: { url, results: 'hits[].{doc_uri: id, score: score}' } });
  return engine.call({ query: 'rotate keys', request_id: 'q1' }, farDeadline());
}

/** Sends the headers (promising a longer body) and the start of the answer, then destroys the socket. */
function cutMidAnswer(response: ServerResponse): void {
  response.writeHead(200, { 'content-type': 'application/json', 'content-length': String(ANSWER.length * 10) });
  response.write(PARTIAL, () => response.socket?.destroy());
}

describe('an http engine whose connection fails', () => {
  it('retries an answer cut mid-body and counts the failed attempts in the answer', async () => {
    // Prepare: the first two answers are cut, the third is whole
    server = await startRawHttpServer((_, response, index) => (index < 2 ? cutMidAnswer(response) : response.end(ANSWER)));

    // Act
    const result = await ask(`${server.url}/search`, 2);

    // Assess
    expect(result.ok && result.value.hits).toEqual([{ doc_uri: 'doc-7', score: 3 }]);
    expect(result.ok && result.value.attempts).toBe(3);
    expect(server.requests()).toBe(3);
  });

  it('says the connection was closed mid-answer when every attempt is cut', async () => {
    // Prepare
    server = await startRawHttpServer((_, response) => cutMidAnswer(response));

    // Act
    const result = await ask(`${server.url}/search`, 1);

    // Assess
    expect(result).toEqual({
      ok: false,
      error: {
        kind: 'transient',
        message: `POST ${server.url}/search: the connection was closed mid-answer, after ${PARTIAL.length} bytes (UND_ERR_SOCKET) (after 2 attempts)`,
      },
    });
  });

  it.each([
    ['reset before the answer', (response: ServerResponse) => response.socket?.resetAndDestroy(), 'the connection was reset (ECONNRESET)'],
    [
      'closed before the answer',
      (response: ServerResponse) => response.socket?.destroy(),
      'the server closed the connection (UND_ERR_SOCKET)',
    ],
  ])('names a connection %s, as a transient failure', async (_described, cut, fault) => {
    // Prepare
    server = await startRawHttpServer((_, response) => cut(response));

    // Act
    const result = await ask(`${server.url}/search`, 0);

    // Assess
    expect(result).toEqual({ ok: false, error: { kind: 'transient', message: `POST ${server.url}/search: ${fault}` } });
  });

  it('fails permanently on an answer whose gzip encoding is broken, saying so', async () => {
    // Prepare: a gzip header and then garbage, whole and not cut
    const broken = Buffer.concat([gzipSync(ANSWER).subarray(0, 10), Buffer.from('not deflate data at all')]);
    server = await startRawHttpServer((_, response) => {
      response.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      response.end(broken);
    });

    // Act
    const result = await ask(`${server.url}/search`, 2);

    // Assess
    expect(result).toEqual({
      ok: false,
      error: { kind: 'permanent', message: `POST ${server.url}/search: the answer's content encoding is broken (Z_DATA_ERROR)` },
    });
    expect(server.requests()).toBe(1);
  });

  it('fails permanently, naming the port, when the URL it renders is on a port that fetch refuses', async () => {
    // Prepare: the port comes from a matrix variable, so the config check cannot see it before the call
    engine = buildEngine({
      name: 'bad-port',
      retries: 3,
      matrix: { port: [6000] },
      http: { url: 'http://127.0.0.1:{{port}}/search', results: 'hits[].{doc_uri: id}' },
    });

    // Act
    const result = await engine.call({ query: 'rotate keys', request_id: 'q1' }, farDeadline());

    // Assess: no retry could pass, so none is made
    expect(result).toEqual({
      ok: false,
      error: {
        kind: 'permanent',
        message:
          'POST http://127.0.0.1:{{port}}/search: the rendered URL uses port 6000, which fetch refuses to connect to (one of the WHATWG Fetch standard\'s "bad ports"), so no request could reach the server; run the server on another port, such as 8000, and give that one',
      },
    });
  });
});
