import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import type { Engine, EngineResult } from '../../../shared/engines/engine.js';
import { buildEngine, farDeadline } from '../../support/engine-configs.js';
import { startRawHttpServer, streamUntilClosed, type RawHttpServer } from '../../support/raw-http-server.js';

/**
 * An http engine's answer is read as a stream, counting bytes, and dropped
 * as soon as it passes the engine's max_answer_bytes: a huge answer costs
 * the worker at most that much memory, never the whole body.
 */

const LIMIT = 64 * 1024;
/** What the server would send in all: far more than the limit. */
const TOTAL = 16 * 1024 * 1024;
const HIT = `{"id":"doc","text":"${'x'.repeat(200)}"},`;

let server: RawHttpServer | undefined;
let engine: Engine | undefined;
afterEach(async () => {
  await engine?.close();
  engine = undefined;
  await server?.close();
  server = undefined;
});

function ask(url: string, settings: Record<string, unknown> = { max_answer_bytes: LIMIT }): Promise<EngineResult> {
  engine = buildEngine({ name: 'huge', retries: 0, ...settings, http: { url, results: 'hits[].{doc_uri: id, content: text}' } });
  return engine.call({ query: 'everything', request_id: 'q1' }, farDeadline());
}

/** Starts a server that streams an endless-looking answer with `status`, and the promise of what it managed to send. */
async function streaming(
  status: number,
  headers: Record<string, string> = {},
  total = TOTAL,
): Promise<{ sent: Promise<{ written: number; closedEarly: boolean }> }> {
  let sent: ((value: Promise<{ written: number; closedEarly: boolean }>) => void) | undefined;
  const result = new Promise<{ written: number; closedEarly: boolean }>((resolve) => (sent = (value) => resolve(value)));
  server = await startRawHttpServer((_, response: ServerResponse) => {
    response.writeHead(status, { 'content-type': 'application/json', ...headers });
    response.write('{"hits": [');
    sent?.(streamUntilClosed(response, HIT, total));
  });
  return { sent: result };
}

describe('an http engine answer larger than max_answer_bytes', () => {
  it('is a permanent error, and reading stops near the limit instead of taking the whole answer', async () => {
    // Prepare
    const { sent } = await streaming(200);

    // Act
    const result = await ask(`${server?.url}/search`);

    // Assess
    expect(result).toEqual({
      ok: false,
      error: {
        kind: 'permanent',
        message: `POST ${server?.url}/search: the answer passed max_answer_bytes (65536 bytes), so reading stopped there (fix: ask for fewer or shorter hits, or raise max_answer_bytes)`,
      },
    });
    const { written, closedEarly } = await sent;
    expect(closedEarly).toBe(true);
    expect(written).toBeLessThan(TOTAL / 4);
    expect(server?.requests()).toBe(1);
  });

  it('is refused without reading when its Content-Length is above the limit', async () => {
    // Prepare
    const { sent } = await streaming(200, { 'content-length': String(TOTAL) });

    // Act
    const result = await ask(`${server?.url}/search`);

    // Assess
    expect(result).toEqual({
      ok: false,
      error: {
        kind: 'permanent',
        message: `POST ${server?.url}/search: the answer is ${TOTAL} bytes (its Content-Length), above max_answer_bytes (65536 bytes); it was not read (fix: ask for fewer or shorter hits, or raise max_answer_bytes)`,
      },
    });
    expect((await sent).written).toBeLessThan(TOTAL / 4);
  });

  it('keeps only the start of a huge error body for the message', async () => {
    // Prepare
    const { sent } = await streaming(500);

    // Act
    const result = await ask(`${server?.url}/search`);

    // Assess: still transient (a 500), with an excerpt of what was read
    expect(!result.ok && result.error.kind).toBe('transient');
    expect(!result.ok && result.error.message).toMatch(/answered HTTP 500: \{"hits": \[\{"id":"doc","text":"x+\.\.\.$/);
    expect((await sent).written).toBeLessThan(TOTAL / 4);
  });

  it('is 16 MiB when the engine does not set max_answer_bytes', async () => {
    // Prepare
    const { sent } = await streaming(200, {}, 64 * 1024 * 1024);

    // Act
    const result = await ask(`${server?.url}/search`, {});

    // Assess
    expect(!result.ok && result.error.message).toContain('the answer passed max_answer_bytes (16777216 bytes)');
    expect((await sent).written).toBeLessThan(32 * 1024 * 1024);
  });
});
