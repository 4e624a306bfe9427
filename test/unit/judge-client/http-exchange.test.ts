import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { exchange, type ExchangeRequest } from '../../../shared/judge-client/http-exchange.js';
import { startBlackholedPort } from '../../support/blackholed-port.js';
import { closedPort } from '../../support/closed-port.js';

/**
 * The judge client's HTTP: answers read whole, and failures in the shapes
 * Node's fetch gives them, which the openai SDK and classifyFailure read.
 */
let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  server = undefined;
});

async function serve(handle: (request: IncomingMessage, response: ServerResponse, body: string) => void): Promise<string> {
  server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => handle(request, response, Buffer.concat(chunks).toString()));
  });
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', () => resolve()));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/chat/completions`;
}

const post = (body: string, more: Partial<ExchangeRequest> = {}): ExchangeRequest => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body,
  signal: undefined,
  ...more,
});

async function failureOf(work: () => Promise<unknown>): Promise<Error & { cause?: Error & { code?: string } }> {
  try {
    await work();
  } catch (error) {
    return error as Error & { cause?: Error & { code?: string } };
  }
  throw new Error('expected the exchange to fail');
}

describe('exchange: answers', () => {
  it('sends the body with its length and reads the answer whole: status, headers in order, body', async () => {
    // Arrange
    const url = await serve((request, response, body) => {
      response.writeHead(201, 'Made', { 'content-type': 'application/json', 'x-echo-length': request.headers['content-length'] });
      response.end(JSON.stringify({ echoed: body }));
    });

    // Act
    const head = await exchange(url, post('{"model":"m"}'));
    const body = await head.body();

    // Assess
    expect(head.status).toBe(201);
    expect(head.statusText).toBe('Made');
    expect(head.headers).toContainEqual(['x-echo-length', '13']);
    expect(JSON.parse(body.toString())).toEqual({ echoed: '{"model":"m"}' });
  });

  it('reads a gzip answer decoded, as fetch does', async () => {
    // Arrange
    const url = await serve((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      response.end(gzipSync('{"ok":true}'));
    });

    // Act
    const body = await (await exchange(url, post('{}'))).body();

    // Assess
    expect(body.toString()).toBe('{"ok":true}');
  });

  it('follows no redirect: a 307 is the answer', async () => {
    // Arrange
    let requests = 0;
    const url = await serve((_request, response) => {
      requests++;
      response.writeHead(307, { location: 'http://127.0.0.1:1/elsewhere' });
      response.end();
    });

    // Act
    const head = await exchange(url, post('{}'));

    // Assess
    expect(head.status).toBe(307);
    expect(requests).toBe(1);
  });
});

describe('exchange: failures, as fetch fails', () => {
  it('rejects a refused connection as `TypeError: fetch failed` caused by ECONNREFUSED', async () => {
    // Act
    const error = await failureOf(async () => exchange(`http://127.0.0.1:${await closedPort()}/v1`, post('{}')));

    // Assess
    expect(error).toBeInstanceOf(TypeError);
    expect(error.message).toBe('fetch failed');
    expect(error.cause?.code).toBe('ECONNREFUSED');
  });

  it('rejects a connection that does not open in time (a dropped port) as fetch does: `fetch failed` caused by UND_ERR_CONNECT_TIMEOUT', async () => {
    // Arrange: a port whose connections never open
    const hole = await startBlackholedPort();
    const startedAt = Date.now();

    try {
      // Act
      const error = await failureOf(() => exchange(`http://127.0.0.1:${hole.port}/v1`, post('{}', { connectTimeoutMs: 300 })));

      // Assess
      expect(error).toBeInstanceOf(TypeError);
      expect(error.message).toBe('fetch failed');
      expect(error.cause).toMatchObject({
        code: 'UND_ERR_CONNECT_TIMEOUT',
        message: `no connection to 127.0.0.1:${hole.port} opened within 300 ms`,
      });
      expect(Date.now() - startedAt).toBeGreaterThanOrEqual(290);
      expect(Date.now() - startedAt).toBeLessThan(2_000);
    } finally {
      await hole.close();
    }
  });

  it('times only the opening of a connection: an answer slower than the connect timeout, on a new connection and on a kept one, is read', async () => {
    // Arrange: the server answers after 400 ms; connections may take 200 ms to open
    const url = await serve((_request, response) => {
      setTimeout(() => response.end('{"ok":true}'), 400);
    });
    const slow = post('{}', { connectTimeoutMs: 200 });

    // Act
    const first = await (await exchange(url, slow)).body();
    const second = await (await exchange(url, slow)).body();

    // Assess
    expect(first.toString()).toBe('{"ok":true}');
    expect(second.toString()).toBe('{"ok":true}');
  });

  it('rejects an answer cut off mid-body as `TypeError: terminated`, the server having closed the connection', async () => {
    // Arrange: the head and half the body, then the connection is destroyed
    const url = await serve((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
      response.write('{"id":');
      setTimeout(() => response.socket?.destroy(), 10);
    });

    // Act
    const head = await exchange(url, post('{}'));
    const error = await failureOf(() => head.body());

    // Assess
    expect(error).toBeInstanceOf(TypeError);
    expect(error.message).toBe('terminated');
    expect(error.cause).toMatchObject({ message: 'other side closed', code: 'UND_ERR_SOCKET' });
  });

  it("ends with a TimeoutError once the attempt's time is up, the body included", async () => {
    // Arrange: a head, then nothing
    const url = await serve((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
      response.write('{');
    });

    // Act: the time may run out before the head on a busy machine, or while the body is read: a TimeoutError either way
    const error = await failureOf(async () => (await exchange(url, post('{}', { timeoutMs: 200 }))).body());

    // Assess
    expect(error.name).toBe('TimeoutError');
  });

  it("ends with the signal's reason when the caller aborts", async () => {
    // Arrange: an answer that never comes
    const url = await serve(() => {});
    const controller = new AbortController();
    setTimeout(() => controller.abort('the deadline came'), 20);

    // Act
    const error = await failureOf(() => exchange(url, post('{}', { signal: controller.signal })));

    // Assess
    expect(error).toBe('the deadline came');
  });
});

describe('exchange: kept connections', () => {
  it('sends a request again, once, on a new connection when a kept one closes without an answer, and says so', async () => {
    // Arrange: the first request is answered; the second, on the kept connection, is hung up on (as a
    // server does whose keep-alive timeout closed that connection as the request left); the third is answered
    let requests = 0;
    const url = await serve((_request, response) => {
      requests++;
      if (requests === 2) response.socket?.destroy();
      else response.end('{}');
    });
    await (await exchange(url, post('{}'))).body();
    let resent = 0;

    // Act
    const head = await exchange(url, post('{}', { onResend: () => resent++ }));

    // Assess
    expect(head.status).toBe(200);
    expect(resent).toBe(1);
    expect(requests).toBe(3);
  });

  it('does not send again a request whose fresh connection was hung up on: that is the failure', async () => {
    // Arrange
    const url = await serve((_request, response) => response.socket?.destroy());
    let resent = 0;

    // Act
    const error = await failureOf(() => exchange(url, post('{}', { onResend: () => resent++ })));

    // Assess
    expect(error.message).toBe('fetch failed');
    expect(error.cause).toMatchObject({ code: 'UND_ERR_SOCKET' });
    expect(resent).toBe(0);
  });
});
