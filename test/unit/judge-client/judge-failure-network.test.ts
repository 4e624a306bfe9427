import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { JudgeClient } from '../../../shared/judge-client/judge-client.js';
import { classifyFailure } from '../../../shared/judge-client/judge-failure.js';
import { closedPort } from '../../support/closed-port.js';
import { answerWith, judgeRequest, TEST_CLIENT_SETTINGS } from '../../support/judge-clients.js';
import { startOpenAiTestServer, type OpenAiTestServer } from '../../support/openai-test-server.js';

/**
 * Network faults that reach classifyFailure without the SDK's wrapping are
 * transient failures that say what happened; any other error that is not
 * the server's answer is a bug and is thrown. The errors are the real ones
 * Node's fetch raises, except a name that does not resolve, which would
 * need a DNS server.
 */
let server: OpenAiTestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const API_KEY = 'sk-failure-network-Qm3Vx8Lp';

async function failureOf(work: () => Promise<unknown>): Promise<unknown> {
  try {
    await work();
  } catch (error) {
    return error;
  }
  throw new Error('expected the work to fail');
}

describe('classifyFailure: network faults', () => {
  it("reads undici's `TypeError: terminated` (an answer cut off mid-body) as a transient failure", async () => {
    // Prepare: the real error of reading a body whose connection was destroyed half-way
    server = await startOpenAiTestServer({ oracle: answerWith({ rating: 'yes' }), faults: { firstFaults: ['cut'] } });
    const response = await fetch(`${server.baseUrl}/chat/completions`, {
      method: 'POST',
      body: JSON.stringify({ model: 'm', messages: [] }),
    });
    const error = await failureOf(() => response.text());

    // Act
    const failure = classifyFailure(error, API_KEY);

    // Assess
    expect(error).toBeInstanceOf(TypeError);
    expect(failure).toEqual({
      kind: 'failed',
      transient: true,
      error: 'the connection to the judge server failed: the server closed the connection (UND_ERR_SOCKET)',
    });
  });

  it('reads `TypeError: fetch failed` caused by a refused connection as a transient failure naming it', async () => {
    // Prepare
    const port = await closedPort();
    const error = await failureOf(() => fetch(`http://127.0.0.1:${port}/v1/chat/completions`));

    // Act
    const failure = classifyFailure(error, API_KEY);

    // Assess
    expect(failure).toEqual({
      kind: 'failed',
      transient: true,
      error: 'cannot reach the judge server: the connection was refused (ECONNREFUSED)',
    });
  });

  it('reads a host name that does not resolve as a transient failure naming it', () => {
    // Prepare: the shape of Node's fetch error for a name the resolver does not know
    const cause = Object.assign(new Error('getaddrinfo ENOTFOUND judge.invalid'), { code: 'ENOTFOUND', hostname: 'judge.invalid' });
    const error = new TypeError('fetch failed', { cause });

    // Act
    const failure = classifyFailure(error, API_KEY);

    // Assess
    expect(failure).toEqual({
      kind: 'failed',
      transient: true,
      error: 'cannot reach the judge server: the host name did not resolve (ENOTFOUND)',
    });
  });

  it('names what the HTTP parser found wrong with an answer it could not read, through the judge client', async () => {
    // Prepare: a server whose answer says both Content-Length and Transfer-Encoding, which HTTP/1.1 forbids
    const broken = createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': '2', 'transfer-encoding': 'chunked' });
      response.end('{}');
    });
    await new Promise<void>((resolve) => broken.listen(0, '127.0.0.1', () => resolve()));
    const client = new JudgeClient({
      ...TEST_CLIENT_SETTINGS,
      baseUrl: `http://127.0.0.1:${(broken.address() as AddressInfo).port}/v1`,
      maxRetries: 0,
    });

    // Act
    const completion = await client.complete(judgeRequest);
    broken.close();

    // Assess
    expect(completion).toMatchObject({
      ok: false,
      transient: true,
      error:
        "the connection to the judge server failed: Parse Error: Transfer-Encoding can't be present with Content-Length (HPE_INVALID_TRANSFER_ENCODING)",
    });
  });

  it('throws a TypeError of our own code, which carries no network code', () => {
    const bug = new TypeError("Cannot read properties of undefined (reading 'choices')");
    expect(() => classifyFailure(bug, API_KEY)).toThrow(bug);
  });

  it('throws a TypeError that only says "terminated", without the socket error behind it', () => {
    const bug = new TypeError('terminated');
    expect(() => classifyFailure(bug, API_KEY)).toThrow(bug);
  });
});
