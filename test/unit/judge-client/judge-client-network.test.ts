import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startDeadline } from '../../../shared/judge-answers/call-deadline.js';
import { JudgeTransport, type ServerContact, type TrackedCall } from '../../../shared/judge-client/bounded-retry-fetch.js';
import { JudgeClient } from '../../../shared/judge-client/judge-client.js';
import { RateGovernor } from '../../../shared/judge-rate/rate-governor.js';
import { startBlackholedPort } from '../../support/blackholed-port.js';
import { startHangingUpServer, startSilentServer, type MisbehavingServer } from '../../support/misbehaving-servers.js';
import { closedPort } from '../../support/closed-port.js';
import { answerWith, judgeRequest, startJudgeClient, TEST_CLIENT_SETTINGS } from '../../support/judge-clients.js';
import type { OpenAiTestServer } from '../../support/openai-test-server.js';

/**
 * What the judge client makes of a connection that breaks: an answer cut
 * off mid-body or a hang-up is retried within the call and counted, a
 * server that was never reached and refuses connections stops every call at
 * once, and one that answered before and then drops stays a passing fault.
 */
let server: OpenAiTestServer | undefined;
let stalling: Server | undefined;
let misbehaving: MisbehavingServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  await misbehaving?.close();
  misbehaving = undefined;
  stalling?.closeAllConnections();
  stalling?.close();
  stalling = undefined;
});

/** A server that sends an answer's headers and the start of its body, then nothing more; it counts the requests. */
async function startStallingServer(): Promise<{ baseUrl: string; requests: () => number }> {
  let requests = 0;
  stalling = createServer((_request, response) => {
    requests += 1;
    response.writeHead(200, { 'content-type': 'application/json', 'content-length': '500' });
    response.write('{"id": "chatcmpl-stalled", "choices": [');
  });
  await new Promise<void>((resolve) => stalling?.listen(0, '127.0.0.1', () => resolve()));
  return { baseUrl: `http://127.0.0.1:${(stalling.address() as AddressInfo).port}/v1`, requests: () => requests };
}

/** A silent server, closed after the test. */
async function silentJudge(): Promise<MisbehavingServer> {
  misbehaving = await startSilentServer();
  return misbehaving;
}

const verdict = { rationale: 'on topic', rating: 'yes' };

describe('JudgeClient: a connection that breaks', () => {
  it('retries an answer cut off in the middle of its body, and counts the cut attempt', async () => {
    // Prepare: the first answer's headers and half its body arrive, then the connection is destroyed
    const started = await startJudgeClient(answerWith(verdict), { firstFaults: ['cut'] });
    server = started.server;

    // Act
    const completion = await started.client.complete(judgeRequest);

    // Assess: two requests reached the server, one judgment plus one retry
    expect(completion).toMatchObject({ ok: true, output: verdict, retries: 1 });
    expect(server.log.map((entry) => entry.outcome)).toEqual(['cut', 'answer']);
  });

  it('retries a connection closed before any answer, and counts it', async () => {
    // Prepare
    const started = await startJudgeClient(answerWith(verdict), { firstFaults: ['hang-up'] });
    server = started.server;

    // Act
    const completion = await started.client.complete(judgeRequest);

    // Assess
    expect(completion).toMatchObject({ ok: true, output: verdict, retries: 1 });
    expect(server.log.map((entry) => entry.outcome)).toEqual(['hang-up', 'answer']);
  });

  it('fails as a transient error that says what happened when every answer is cut', async () => {
    // Prepare: both attempts (the request and its one retry) are cut
    const started = await startJudgeClient(answerWith(verdict), { firstFaults: ['cut', 'cut'] }, { maxRetries: 1 });
    server = started.server;

    // Act
    const completion = await started.client.complete(judgeRequest);

    // Assess
    expect(completion).toMatchObject({
      ok: false,
      transient: true,
      retries: 1,
      error: 'the connection to the judge server failed: the server closed the connection (UND_ERR_SOCKET)',
    });
    expect(server.log.map((entry) => entry.outcome)).toEqual(['cut', 'cut']);
  });
});

describe('JudgeClient: an answer whose body stops coming', () => {
  it('times the body out with the attempt, and retries it', async () => {
    // Prepare: each attempt may take 150 ms; the judgment has seconds
    const stalled = await startStallingServer();
    const client = new JudgeClient({
      ...TEST_CLIENT_SETTINGS,
      baseUrl: stalled.baseUrl,
      timeoutMs: 150,
      maxRetries: 1,
      callDeadlineMs: 5_000,
    });

    // Act
    const completion = await client.complete(judgeRequest);

    // Assess
    expect(completion).toMatchObject({ ok: false, transient: true, retries: 1, error: 'the judge call timed out' });
    expect(stalled.requests()).toBe(2);
  });

  it("stops at the judgment's deadline while the body is being read, as a transient failure", async () => {
    // Prepare: the deadline comes long before the attempt's timeout
    const stalled = await startStallingServer();
    const client = new JudgeClient({ ...TEST_CLIENT_SETTINGS, baseUrl: stalled.baseUrl, timeoutMs: 5_000, callDeadlineMs: 200 });
    const startedAt = Date.now();

    // Act
    const completion = await client.complete(judgeRequest);

    // Assess
    expect(completion).toMatchObject({
      ok: false,
      transient: true,
      error: expect.stringMatching(/^the judgment ran out of time: it stopped at its deadline/),
    });
    expect(stalled.requests()).toBe(1);
    expect(Date.now() - startedAt).toBeLessThan(1_000);
  });
});

describe('JudgeClient: a server that cannot be reached', () => {
  it('fails at once, without retrying, when the server never answered and refuses the connection; later calls make no attempt; the cases go back to the queue', async () => {
    // Prepare: nothing listens at the port; the SDK alone would retry 4 times over some 7 seconds
    const baseUrl = `http://127.0.0.1:${await closedPort()}/v1`;
    const client = new JudgeClient({ ...TEST_CLIENT_SETTINGS, baseUrl, maxRetries: 4 });
    const startedAt = Date.now();

    // Act
    const first = await client.complete(judgeRequest);
    const second = await client.complete(judgeRequest);

    // Assess
    const error = `cannot reach the judge server at ${baseUrl}: the connection was refused (ECONNREFUSED); check OPENAI_BASE_URL (or the config's judge base_url) and that the server is running`;
    expect(first).toEqual({ ok: false, transient: true, error, retries: 0, rateLimited: 0, usage: { inputTokens: 0, outputTokens: 0 } });
    expect(second).toEqual({ ok: false, transient: true, error, retries: 0, rateLimited: 0, usage: { inputTokens: 0, outputTokens: 0 } });
    expect(Date.now() - startedAt).toBeLessThan(400);
  });

  it('fails at once, without retrying, when the server never answered and no connection opens in time (a port a firewall drops)', async () => {
    // Prepare: a port whose connections never open; four calls at once, each allowed 4 retries and 5 s an attempt
    const hole = await startBlackholedPort();
    const baseUrl = `http://127.0.0.1:${hole.port}/v1`;
    const client = new JudgeClient({ ...TEST_CLIENT_SETTINGS, baseUrl, maxRetries: 4, timeoutMs: 5_000, connectTimeoutMs: 300 });
    const startedAt = Date.now();

    try {
      // Act
      const completions = await Promise.all([1, 2, 3, 4].map(() => client.complete(judgeRequest)));
      const later = await client.complete(judgeRequest);

      // Assess: one connect timeout ends them all; the call after it makes no attempt
      const error =
        `cannot reach the judge server at ${baseUrl}: no connection opened in time, as when a firewall drops the packets to the port or ` +
        "no host has that address (UND_ERR_CONNECT_TIMEOUT); check OPENAI_BASE_URL (or the config's judge base_url) and that the server is running";
      for (const completion of [...completions, later]) expect(completion).toMatchObject({ ok: false, transient: true, error });
      expect(later).toMatchObject({ retries: 0 });
      expect(Date.now() - startedAt).toBeLessThan(2_000);
    } finally {
      await hole.close();
    }
  });

  it('fails at once, without retrying, when an https:// base URL names a server that speaks plain HTTP', async () => {
    // Prepare: a plain HTTP server, asked over TLS
    const started = await startJudgeClient(answerWith(verdict));
    server = started.server;
    const baseUrl = started.server.baseUrl.replace('http://', 'https://');
    const client = new JudgeClient({ ...TEST_CLIENT_SETTINGS, baseUrl, maxRetries: 4 });
    const startedAt = Date.now();

    // Act
    const first = await client.complete(judgeRequest);
    const later = await client.complete(judgeRequest);

    // Assess
    const error =
      `cannot reach the judge server at ${baseUrl}: the TLS handshake failed, as when an https:// address names a server that speaks plain HTTP ` +
      "(EPROTO); check OPENAI_BASE_URL (or the config's judge base_url) and that the server is running";
    expect(first).toMatchObject({ ok: false, transient: true, error, retries: 0 });
    expect(later).toMatchObject({ ok: false, transient: true, error, retries: 0 });
    expect(Date.now() - startedAt).toBeLessThan(1_000);
  });

  it('fails without its retries when the server closes every connection before answering (an https-only server asked over http://): two in a row', async () => {
    // Prepare: a server that hangs up on every request, as a TLS server does on plain HTTP
    const hangingUp = await startHangingUpServer();
    misbehaving = hangingUp;
    const baseUrl = `${hangingUp.origin}/v1`;
    const client = new JudgeClient({ ...TEST_CLIENT_SETTINGS, baseUrl, maxRetries: 6 });

    // Act
    const first = await client.complete(judgeRequest);
    const later = await client.complete(judgeRequest);

    // Assess: two requests, not seven
    const error =
      `the judge server at ${baseUrl} closed the connection before answering, at an attempt and at the attempt after it (the server closed ` +
      "the connection (UND_ERR_SOCKET)); check that OPENAI_BASE_URL (or the config's judge base_url) names an OpenAI-compatible server: " +
      'a server that speaks only https:// closes an http:// request so';
    expect(first).toMatchObject({ ok: false, transient: true, error, retries: 1 });
    expect(later).toMatchObject({ ok: false, transient: true, error, retries: 0 });
    expect(hangingUp.requests()).toBe(2);
  });

  it('fails without waiting out its deadline when the server accepts connections and never answers: two silent attempts in a row', async () => {
    // Prepare: a server that reads every request and answers none; attempts of 300 ms, a deadline of 20 s
    const silent = await silentJudge();
    const client = new JudgeClient({
      ...TEST_CLIENT_SETTINGS,
      baseUrl: `${silent.origin}/v1`,
      maxRetries: 4,
      timeoutMs: 300,
      callDeadlineMs: 20_000,
    });
    const startedAt = Date.now();

    // Act
    const first = await client.complete(judgeRequest);
    const later = await client.complete(judgeRequest);

    // Assess
    const error = expect.stringMatching(
      new RegExp(
        `^the judge server at ${silent.origin.replaceAll('.', '\\.')}/v1 sent no answer: an attempt timed out after 300 ms \\(judge\\.timeout_ms\\)`,
      ),
    );
    expect(first).toMatchObject({ ok: false, transient: true, error, retries: 1 });
    expect(later).toMatchObject({ ok: false, transient: true, error, retries: 0 });
    expect(silent.requests()).toBe(2);
    expect(Date.now() - startedAt).toBeLessThan(5_000);
  });

  it('lets a server that is silent at first (a model still loading) answer the next attempt', async () => {
    // Prepare: the first request is answered after 1 s, past the 300 ms an attempt may take; the ones after it at once
    const started = await startJudgeClient(answerWith(verdict), { firstFaults: ['slow'], slowMs: 1_000 }, { timeoutMs: 300 });
    server = started.server;

    // Act
    const completion = await started.client.complete(judgeRequest);

    // Assess
    expect(completion).toMatchObject({ ok: true, retries: 1 });
    expect(server.log).toHaveLength(2);
  });

  it('ends every call in flight when the first of them finds the server unreachable', async () => {
    // Prepare
    const baseUrl = `http://127.0.0.1:${await closedPort()}/v1`;
    const client = new JudgeClient({ ...TEST_CLIENT_SETTINGS, baseUrl, maxRetries: 4 });
    const startedAt = Date.now();

    // Act
    const completions = await Promise.all([1, 2, 3, 4].map(() => client.complete(judgeRequest)));

    // Assess
    for (const completion of completions)
      expect(completion).toMatchObject({ ok: false, transient: true, error: expect.stringMatching(/^cannot reach the judge server at /) });
    expect(Date.now() - startedAt).toBeLessThan(400);
  });

  it('keeps a server that answered before and then refuses connections a passing fault: the call fails transient and the next one tries again', async () => {
    // Prepare: one answer, then the server goes away
    const started = await startJudgeClient(answerWith(verdict), {}, { maxRetries: 0 });
    expect(await started.client.complete(judgeRequest)).toMatchObject({ ok: true });
    await started.server.close();

    // Act
    const first = await started.client.complete(judgeRequest);
    const second = await started.client.complete(judgeRequest);

    // Assess
    const error = 'cannot reach the judge server: the connection was refused (ECONNREFUSED)';
    expect(first).toMatchObject({ ok: false, transient: true, error });
    expect(second).toMatchObject({ ok: false, transient: true, error });
  });
});

describe('JudgeTransport: what it tells of an attempt that got no answer', () => {
  it("takes an attempt cut by its judgment's deadline for silence, though the SDK's own signal aborted it as a plain abort", async () => {
    // Prepare: a silent server; a judgment with 200 ms left; the attempt's signal is the SDK's, which aborts without the deadline's reason
    const silent = await silentJudge();
    const seen: string[] = [];
    const contact: ServerContact = {
      sawAnswer: () => seen.push('answer'),
      sawFailure: () => seen.push('failure'),
      sawSilence: (_startedAt, timeoutMs) => seen.push(`silence ${timeoutMs}`),
    };
    const governor = new RateGovernor({ maxInFlight: 4, maxHoldMs: 1_000 });
    const transport = new JudgeTransport({ maxRetryWaitMs: 1_000, timeoutMs: 5_000, maxTokens: 100, governor }, new Map(), contact);
    const deadline = startDeadline(200);
    const sdkSignal = new AbortController();
    deadline.signal.addEventListener('abort', () => sdkSignal.abort());
    const call: TrackedCall = { attempts: 0, rateLimited: 0, heldByRateLimit: false, deadline };
    const request = { url: `${silent.origin}/v1/chat/completions`, method: 'POST', headers: {}, body: '{}' };

    // Act
    const failure = await transport.attempt(request, sdkSignal.signal, call).catch((error: unknown) => error);
    deadline.end();

    // Assess
    expect(failure).toMatchObject({ name: 'AbortError' });
    expect(seen).toEqual(['silence 5000']);
  });

  it('takes an abort by the caller, with time left, for no silence', async () => {
    // Prepare
    const silent = await silentJudge();
    const seen: string[] = [];
    const contact: ServerContact = {
      sawAnswer: () => seen.push('answer'),
      sawFailure: () => seen.push('failure'),
      sawSilence: () => seen.push('silence'),
    };
    const governor = new RateGovernor({ maxInFlight: 4, maxHoldMs: 1_000 });
    const transport = new JudgeTransport({ maxRetryWaitMs: 1_000, timeoutMs: 5_000, maxTokens: 100, governor }, new Map(), contact);
    const deadline = startDeadline(10_000);
    const caller = new AbortController();
    const call: TrackedCall = { attempts: 0, rateLimited: 0, heldByRateLimit: false, deadline };
    const request = { url: `${silent.origin}/v1/chat/completions`, method: 'POST', headers: {}, body: '{}' };

    // Act
    const attempt = transport.attempt(request, caller.signal, call).catch((error: unknown) => error);
    setTimeout(() => caller.abort(), 100);
    const failure = await attempt;
    deadline.end();

    // Assess
    expect(failure).toMatchObject({ name: 'AbortError' });
    expect(seen).toEqual(['failure']);
  });
});
