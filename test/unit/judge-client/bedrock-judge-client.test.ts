import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BedrockJudgeClient, type BedrockJudgeSettings } from '../../../shared/judge-client/bedrock-judge-client.js';
import { RateGovernor } from '../../../shared/judge-rate/rate-governor.js';
import { closedPort } from '../../support/closed-port.js';
import { startHangingUpServer, startSilentServer } from '../../support/misbehaving-servers.js';
import { startBedrockTestServer, type BedrockFaultPlan, type BedrockTestServer } from '../../support/bedrock-test-server.js';
import { answerWith, judgeRequest } from '../../support/judge-clients.js';
import type { Oracle } from '../../support/openai-test-server.js';

/**
 * The judge client on Amazon Bedrock's Converse API, against a loopback
 * server that speaks its wire (HTTP/1.1 or HTTP/2 over http://, SigV4, the
 * Converse JSON, errors by x-amzn-errortype): structured output as a forced
 * tool, stopReason read as finish_reason, usage, throttling retried, refused
 * credentials fatal, the deadline, the step down to JSON in text for a model
 * without forced tool use, and a server that speaks the other HTTP version.
 */
const ACCESS_KEY = 'AKIDBEDROCKJUDGETEST';
const MODEL = 'anthropic.claude-3-5-haiku-20241022-v1:0';
const verdict = { rationale: 'on topic', rating: 'yes' };

let server: BedrockTestServer | undefined;
beforeEach(() => {
  vi.stubEnv('AWS_ACCESS_KEY_ID', ACCESS_KEY);
  vi.stubEnv('AWS_SECRET_ACCESS_KEY', 'bedrock-judge-test-secret-key-value-0123');
  vi.stubEnv('AWS_SESSION_TOKEN', undefined);
  vi.stubEnv('AWS_PROFILE', undefined);
});
afterEach(async () => {
  vi.unstubAllEnvs();
  await server?.close();
  server = undefined;
});

async function startClient(
  oracle: Oracle,
  faults: BedrockFaultPlan = {},
  settings: Partial<BedrockJudgeSettings> = {},
  http: '1.1' | '2' = '1.1',
): Promise<{ client: BedrockJudgeClient; server: BedrockTestServer }> {
  server = await startBedrockTestServer({ oracle, accessKeyId: ACCESS_KEY, faults, http });
  const client = new BedrockJudgeClient({
    region: 'us-east-1',
    endpoint: server.endpoint,
    model: MODEL,
    temperature: 0,
    timeoutMs: 2_000,
    maxRetries: 3,
    maxTokens: 1024,
    callDeadlineMs: 120_000,
    ...settings,
  });
  return { client, server };
}

describe('BedrockJudgeClient: answers', () => {
  it('forces a tool whose input schema is the judge schema, signs with SigV4, and reads the tool input and the usage', async () => {
    // Prepare
    const started = await startClient(answerWith(verdict));

    // Act
    const completion = await started.client.complete(judgeRequest);

    // Assess
    expect(completion).toMatchObject({ ok: true, output: verdict, retries: 0 });
    expect(completion.usage.inputTokens).toBeGreaterThan(0);
    expect(completion.usage.outputTokens).toBeGreaterThan(0);
    const [sent] = started.server.log;
    expect(sent?.modelId).toBe(MODEL);
    expect(sent?.authorization).toMatch(new RegExp(`^AWS4-HMAC-SHA256 Credential=${ACCESS_KEY}/\\d{8}/us-east-1/bedrock/aws4_request`));
    expect(sent?.body).toMatchObject({
      system: [{ text: 'Judge the passage.' }],
      messages: [{ role: 'user', content: [{ text: 'Request: a\nPassage: b' }] }],
      inferenceConfig: { maxTokens: 1024, temperature: 0 },
      toolConfig: {
        tools: [{ toolSpec: { name: 'chunk_relevance', inputSchema: { json: { type: 'object', required: ['rationale', 'rating'] } } } }],
        toolChoice: { tool: { name: 'chunk_relevance' } },
      },
    });
  });

  it.each([
    ['guardrail_intervened', (() => ({ refusal: 'Sorry, the model cannot answer this question.' })) satisfies Oracle],
    ['content_filtered', (() => ({ text: '', finishReason: 'content_filter' })) satisfies Oracle],
  ])('reads stopReason %s as a content filter: the judgment fails, not transient, without a repair request', async (stopReason, oracle) => {
    // Prepare
    const started = await startClient(oracle);

    // Act
    const completion = await started.client.complete(judgeRequest);

    // Assess
    expect(completion).toMatchObject({
      ok: false,
      transient: false,
      error: `the judge server's content filter stopped the answer (stopReason ${stopReason}); this judgment cannot be made on this server`,
    });
    expect(started.server.log).toHaveLength(1);
  });

  it('reads stopReason max_tokens as an answer cut at the token limit, without a repair request', async () => {
    // Prepare
    const started = await startClient(() => ({ text: '{"rationale": "the pass', finishReason: 'length' }), {}, { maxTokens: 64 });

    // Act
    const completion = await started.client.complete(judgeRequest);

    // Assess
    expect(completion).toMatchObject({ ok: false, transient: false, error: 'the answer was cut at max_tokens=64; raise judge.max_tokens' });
    expect(started.server.log.map((entry) => entry.body.inferenceConfig?.maxTokens)).toEqual([64]);
  });

  it('asks once more, with the answer shown, when the answer is prose', async () => {
    // Prepare
    const started = await startClient(answerWith(verdict), { firstFaults: ['garbage'] });

    // Act
    const completion = await started.client.complete(judgeRequest);

    // Assess
    expect(completion).toMatchObject({ ok: true, output: verdict });
    expect(started.server.log[1]?.body.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'user']);
    expect(started.server.log[1]?.body.messages[2]?.content[0]?.text).toMatch(/^That answer is not valid: the answer holds no JSON object/);
  });

  it('steps down to JSON in text, for every later call too, when the model refuses a forced tool', async () => {
    // Prepare
    const started = await startClient(answerWith(verdict), { refuseToolChoice: true });

    // Act
    const first = await started.client.complete(judgeRequest);
    const second = await started.client.complete(judgeRequest);

    // Assess: one refusal in all; then no toolConfig, the schema in the system prompt
    expect(first).toMatchObject({ ok: true, output: verdict });
    expect(second).toMatchObject({ ok: true, output: verdict });
    expect(started.server.log.map((entry) => [entry.outcome, entry.body.toolConfig === undefined])).toEqual([
      ['refused-tool', false],
      ['answer', true],
      ['answer', true],
    ]);
    expect(started.server.log[1]?.body.system?.[0]?.text).toContain('Reply with only a JSON object that matches this JSON Schema');
    expect(started.client.outputMode).toBe('text');
  });
});

describe('BedrockJudgeClient: the HTTP version', () => {
  it.each<[string, '1.1' | '2', Partial<BedrockJudgeSettings>, string]>([
    ['HTTP/1.1 to an http:// endpoint, unless told', '1.1', {}, '1.1'],
    ['HTTP/2 (cleartext h2c) when judge.bedrock.http_version is "2"', '2', { httpVersion: '2' }, '2.0'],
  ])('speaks %s', async (_case, http, settings, spoken) => {
    // Prepare
    const started = await startClient(answerWith(verdict), {}, settings, http);

    // Act
    const completion = await started.client.complete(judgeRequest);

    // Assess
    expect(completion).toMatchObject({ ok: true, output: verdict, retries: 0 });
    expect(started.server.log.map((entry) => entry.httpVersion)).toEqual([spoken]);
  });

  it.each<['1.1' | '2', Partial<BedrockJudgeSettings>, string]>([
    [
      '1.1',
      {},
      'the judge call to Amazon Bedrock timed out: @smithy/node-http-handler - [ERROR] a request has exceeded the configured 200 ms requestTimeout.',
    ],
    ['2', { httpVersion: '2' }, 'the judge call to Amazon Bedrock timed out: Stream timed out because of no activity for 200 ms'],
  ])('bounds each attempt by timeoutMs over HTTP/%s', async (http, settings, error) => {
    // Prepare: every answer is slower than one attempt may take
    const started = await startClient(
      answerWith(verdict),
      { always: 'slow', slowMs: 1_500 },
      { ...settings, timeoutMs: 200, maxRetries: 0 },
      http,
    );
    const startedAt = Date.now();

    // Act
    const completion = await started.client.complete(judgeRequest);

    // Assess
    expect(completion).toMatchObject({ ok: false, transient: true, error });
    expect(Date.now() - startedAt).toBeLessThan(1_000);
  });

  it.each<[string, '1.1' | '2', Partial<BedrockJudgeSettings>, (endpoint: string) => string]>([
    [
      'HTTP/2 to a server that speaks HTTP/1.1',
      '1.1',
      { httpVersion: '2' },
      (endpoint) =>
        `Amazon Bedrock at ${endpoint}/ did not speak HTTP/2 (Protocol error, ERR_HTTP2_ERROR): the judge client spoke HTTP/2, as judge.bedrock.http_version says; set judge.bedrock.http_version: "1.1" if the server speaks HTTP/1.1 (a proxy, a gateway)`,
    ],
    [
      'HTTP/1.1 to a server that speaks only HTTP/2',
      '2',
      {},
      (endpoint) =>
        `Amazon Bedrock at ${endpoint}/ did not answer in HTTP/1.1 (Parse Error: Expected HTTP/, RTSP/ or ICE/, HPE_INVALID_CONSTANT): the judge client spoke HTTP/1.1, as it does to every http:// endpoint; set judge.bedrock.http_version: "2" if the server speaks only HTTP/2 (cleartext h2c over http://)`,
    ],
  ])(
    'says what it spoke and what to set, and stops every later call without a request, when it speaks %s',
    async (_case, http, settings, message) => {
      // Prepare
      const started = await startClient(answerWith(verdict), {}, settings, http);

      // Act
      const first = await started.client.complete(judgeRequest);
      const second = await started.client.complete(judgeRequest);

      // Assess: fatal, not retried by the SDK: one connection in all, and no request the server could read
      expect(first).toMatchObject({ ok: false, transient: false, retries: 0, error: message(started.server.endpoint) });
      expect(second).toMatchObject({ ok: false, transient: false, error: message(started.server.endpoint) });
      expect(started.server.connections()).toBe(1);
      expect(started.server.log).toEqual([]);
    },
  );
});

describe('BedrockJudgeClient: failures', () => {
  it.each(['throttle', 'unavailable', 'not-ready'] as const)('retries a %s answer within the judgment', async (fault) => {
    // Prepare
    const started = await startClient(answerWith(verdict), { firstFaults: [fault] });

    // Act
    const completion = await started.client.complete(judgeRequest);

    // Assess
    expect(completion).toMatchObject({ ok: true, output: verdict, retries: 1 });
    expect(started.server.log).toHaveLength(2);
  });

  it('fails as transient, naming ThrottlingException, when throttling outlives the retries', async () => {
    // Prepare
    const started = await startClient(answerWith(verdict), { always: 'throttle' }, { maxRetries: 1 });

    // Act
    const completion = await started.client.complete(judgeRequest);

    // Assess: both refusals counted as the rate limit's, which held the judgment to its end
    expect(completion).toMatchObject({
      ok: false,
      transient: true,
      retries: 1,
      rateLimited: 2,
      heldByRateLimit: true,
      error: 'Amazon Bedrock answered ThrottlingException, HTTP 429: Too many requests, please wait before trying again.',
    });
  });

  it('holds every attempt of the model for the throttling wait, through the rate governor it shares', async () => {
    // Prepare: one governor for two clients of one model; the first attempt is throttled
    const governor = new RateGovernor({ maxInFlight: 4, maxHoldMs: 5_000 });
    const started = await startClient(answerWith(verdict), { firstFaults: ['throttle'] }, { governor });
    const other = new BedrockJudgeClient({
      region: 'us-east-1',
      endpoint: started.server.endpoint,
      model: MODEL,
      temperature: 0,
      timeoutMs: 2_000,
      maxRetries: 3,
      maxTokens: 1024,
      callDeadlineMs: 120_000,
      governor,
    });

    // Act
    const [first, second] = await Promise.all([started.client.complete(judgeRequest), other.complete(judgeRequest)]);

    // Assess: the throttled attempt is counted, and the governor held the model after it
    expect([first, second].map((completion) => completion.ok)).toEqual([true, true]);
    expect(first.rateLimited + second.rateLimited).toBe(1);
    expect(governor.state().heldUntil).toBeGreaterThan(0);
  });

  it.each<[string, BedrockFaultPlan, RegExp]>([
    [
      'access to the model is denied',
      { firstFaults: ['access-denied'] },
      /^Amazon Bedrock refused the call \(AccessDeniedException, HTTP 403: You don't have access to the model/,
    ],
    [
      'the access key is unknown',
      {},
      /^Amazon Bedrock refused the call \(UnrecognizedClientException, HTTP 403: The security token included in the request is invalid\.\)/,
    ],
  ])('stops every later call, without a request, when %s', async (_case, faults, error) => {
    // Prepare
    const started = await startClient(answerWith(verdict), faults);
    if (Object.keys(faults).length === 0) vi.stubEnv('AWS_ACCESS_KEY_ID', 'AKIDSOMEONEELSE00000');

    // Act
    const first = await started.client.complete(judgeRequest);
    const second = await started.client.complete(judgeRequest);

    // Assess: one request in all, not retried
    expect(first).toMatchObject({ ok: false, transient: false, error: expect.stringMatching(error) });
    expect(first.ok ? '' : first.error).toContain(`bedrock:InvokeModel on the model ${MODEL} in us-east-1`);
    expect(second).toMatchObject({ ok: false, transient: false, error: first.ok ? '' : first.error });
    expect(started.server.log.length).toBeLessThanOrEqual(1);
  });

  it.each<[string, BedrockFaultPlan, { transient: boolean; error: RegExp }]>([
    [
      'a prompt too long',
      { firstFaults: ['too-long'] },
      { transient: false, error: /^the prompt is too long for the judge model \(ValidationException, HTTP 400: Input is too long/ },
    ],
    [
      'a model timeout',
      { firstFaults: ['model-timeout'] },
      { transient: true, error: /^Amazon Bedrock answered ModelTimeoutException, HTTP 408/ },
    ],
  ])('fails only that judgment for %s', async (_case, faults, expected) => {
    // Prepare
    const started = await startClient(answerWith(verdict), faults);

    // Act
    const failed = await started.client.complete(judgeRequest);
    const next = await started.client.complete(judgeRequest);

    // Assess
    expect(failed).toMatchObject({ ok: false, transient: expected.transient, error: expect.stringMatching(expected.error) });
    expect(next).toMatchObject({ ok: true, output: verdict });
  });

  it('stops a judgment at its deadline as a transient failure', async () => {
    // Prepare: every answer is slower than the deadline
    const started = await startClient(answerWith(verdict), { always: 'slow', slowMs: 1_000 }, { callDeadlineMs: 300 });
    const startedAt = Date.now();

    // Act
    const completion = await started.client.complete(judgeRequest);

    // Assess
    expect(completion).toMatchObject({
      ok: false,
      transient: true,
      error: expect.stringMatching(/^the judgment ran out of time: it stopped at its deadline/),
    });
    expect(Date.now() - startedAt).toBeLessThan(900);
  });

  it("stops a judgment at the caller's deadline in the middle of the SDK's backoff, naming the last answer", async () => {
    // Prepare: throttled every time; the SDK backs off between attempts
    const started = await startClient(answerWith(verdict), { always: 'throttle' }, { maxRetries: 8 });
    const startedAt = Date.now();

    // Act
    const completion = await started.client.complete(judgeRequest, { deadlineAt: Date.now() + 400 });

    // Assess
    expect(completion).toMatchObject({
      ok: false,
      transient: true,
      error: expect.stringMatching(/^the judgment ran out of time: .*the last answer: ThrottlingException \(HTTP 429\)/),
    });
    expect(Date.now() - startedAt).toBeLessThan(1_000);
  });

  it("fails at once, transient, without the SDK's retries, when nothing listens at the endpoint", async () => {
    // Prepare
    const port = await closedPort();
    const client = new BedrockJudgeClient({
      region: 'us-east-1',
      endpoint: `http://127.0.0.1:${port}`,
      model: MODEL,
      temperature: 0,
      timeoutMs: 2_000,
      maxRetries: 3,
      maxTokens: 1024,
      callDeadlineMs: 120_000,
    });
    const startedAt = Date.now();

    // Act
    const first = await client.complete(judgeRequest);
    const second = await client.complete(judgeRequest);

    // Assess
    const reason = `cannot reach the judge server at http://127.0.0.1:${port}/: the connection was refused (ECONNREFUSED); check judge.bedrock (region, endpoint) and that the server is running`;
    expect(first).toMatchObject({ ok: false, transient: true, error: reason });
    expect(second).toMatchObject({ ok: false, transient: true, error: reason });
    expect(Date.now() - startedAt).toBeLessThan(1_000);
  });

  it('fails without waiting out its deadline when the endpoint accepts connections and never answers: two silent attempts in a row', async () => {
    // Prepare: an endpoint that reads every request and answers none; attempts of 300 ms
    const silent = await startSilentServer();
    const endpoint = silent.origin;
    const client = new BedrockJudgeClient({
      region: 'us-east-1',
      endpoint,
      model: MODEL,
      temperature: 0,
      timeoutMs: 300,
      maxRetries: 3,
      maxTokens: 1024,
      callDeadlineMs: 20_000,
    });
    const startedAt = Date.now();

    try {
      // Act
      const first = await client.complete(judgeRequest);
      const later = await client.complete(judgeRequest);

      // Assess
      const reason =
        `the judge server at ${endpoint}/ sent no answer: an attempt timed out after 300 ms (judge.timeout_ms), and the attempt after it ` +
        "got no answer either; check that judge.bedrock (region, endpoint) names Amazon Bedrock's runtime, or raise judge.timeout_ms for one that takes longer to start";
      expect(first).toMatchObject({ ok: false, transient: true, error: reason });
      expect(later).toMatchObject({ ok: false, transient: true, error: reason });
      expect(Date.now() - startedAt).toBeLessThan(5_000);
    } finally {
      await silent.close();
    }
  });

  it('fails without its retries when the endpoint closes every connection before answering: two in a row', async () => {
    // Prepare: an endpoint that hangs up on every request, as a TLS-only server does on plain HTTP
    const hangingUp = await startHangingUpServer();
    const endpoint = hangingUp.origin;
    const client = new BedrockJudgeClient({
      region: 'us-east-1',
      endpoint,
      model: MODEL,
      temperature: 0,
      timeoutMs: 2_000,
      maxRetries: 6,
      maxTokens: 1024,
      callDeadlineMs: 20_000,
    });

    try {
      // Act
      const first = await client.complete(judgeRequest);
      const later = await client.complete(judgeRequest);

      // Assess: two requests, not seven; the call after them makes none
      const reason = expect.stringMatching(
        new RegExp(
          `^the judge server at ${endpoint.replaceAll('.', '\\.')}/ closed the connection before answering, at an attempt and at the attempt after it`,
        ),
      );
      expect(first).toMatchObject({ ok: false, transient: true, error: reason });
      expect(later).toMatchObject({ ok: false, transient: true, error: reason });
      expect(hangingUp.requests()).toBe(2);
    } finally {
      await hangingUp.close();
    }
  });
});
