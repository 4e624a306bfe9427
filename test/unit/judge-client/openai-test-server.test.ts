import { connect } from 'node:net';
import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { startOpenAiTestServer, type FaultPlan, type Oracle, type OpenAiTestServer } from '../../support/openai-test-server.js';

// These tests pin down both the server and the behaviour of the real `openai`
// client against it (retries, retry-after-ms, error classes), which a judge
// client relies on.

const verdict = { rating: 2, rationale: 'The chunk answers the question.' };
const answerVerdict: Oracle = () => ({ json: verdict });
const question = [{ role: 'user' as const, content: 'Is the chunk relevant?' }];

let server: OpenAiTestServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function start(oracle: Oracle = answerVerdict, faults?: FaultPlan): Promise<OpenAiTestServer> {
  server = await startOpenAiTestServer(faults === undefined ? { oracle } : { oracle, faults });
  return server;
}

function clientOf(running: OpenAiTestServer, options: { maxRetries?: number; timeout?: number } = {}): OpenAI {
  return new OpenAI({
    baseURL: running.baseUrl,
    apiKey: 'test-key',
    maxRetries: options.maxRetries ?? 2,
    timeout: options.timeout ?? 2_000,
  });
}

async function timed<T>(work: () => Promise<T>): Promise<{ result: T; elapsedMs: number }> {
  const started = performance.now();
  const result = await work();
  return { result, elapsedMs: performance.now() - started };
}

async function failureOf(work: Promise<unknown>): Promise<unknown> {
  return work.then(
    () => expect.fail('expected the request to fail'),
    (error: unknown) => error,
  );
}

describe('answers', () => {
  it('sends a plain text answer as the message content, with usage and the key in Authorization only', async () => {
    // Prepare
    const running = await start(() => ({ text: 'relevant' }));
    // Act
    const completion = await clientOf(running).chat.completions.create({ model: 'judge-model', messages: question });
    // Assess
    expect(completion.object).toBe('chat.completion');
    expect(completion.model).toBe('judge-model');
    expect(completion.choices[0]?.message.content).toBe('relevant');
    expect(completion.choices[0]?.finish_reason).toBe('stop');
    // 'Is the chunk relevant?' is 22 characters: ceil(22 / 4) = 6; 'relevant' is 8: ceil(8 / 4) = 2
    expect(completion.usage).toMatchObject({ prompt_tokens: 6, completion_tokens: 2, total_tokens: 8 });
    const [entry] = running.log;
    expect(entry?.authorization).toBe('Bearer test-key');
    const carryingKey = Object.entries(entry?.headers ?? {}).filter(([, value]) => value.includes('test-key'));
    expect(carryingKey).toEqual([['authorization', 'Bearer test-key']]);
    expect(JSON.stringify(entry?.request)).not.toContain('test-key');
    expect(running.answered()).toBe(1);
  });

  it("puts the oracle's JSON in the content of a structured-output request", async () => {
    // Prepare
    const running = await start();
    const schema = {
      type: 'object',
      properties: { rating: { type: 'integer' }, rationale: { type: 'string' } },
      required: ['rating', 'rationale'],
      additionalProperties: false,
    };
    // Act
    const completion = await clientOf(running).chat.completions.create({
      model: 'judge-model',
      messages: question,
      temperature: 0,
      response_format: { type: 'json_schema', json_schema: { name: 'verdict', schema, strict: true } },
    });
    // Assess
    expect(JSON.parse(completion.choices[0]?.message.content ?? '')).toEqual(verdict);
    expect(running.log[0]?.request.response_format).toMatchObject({ type: 'json_schema', json_schema: { name: 'verdict' } });
    expect(running.log[0]?.request.temperature).toBe(0);
  });

  it("answers a forced tool call with the oracle's JSON as the arguments", async () => {
    // Prepare
    const running = await start();
    const tool = { type: 'function' as const, function: { name: 'record_verdict', parameters: { type: 'object' } } };
    // Act
    const completion = await clientOf(running).chat.completions.create({
      model: 'judge-model',
      messages: question,
      tools: [tool],
      tool_choice: { type: 'function', function: { name: 'record_verdict' } },
    });
    // Assess
    const choice = completion.choices[0];
    expect(choice?.finish_reason).toBe('tool_calls');
    expect(choice?.message.content).toBeNull();
    const call = choice?.message.tool_calls?.[0];
    if (call?.type !== 'function') return expect.fail('expected a function tool call');
    expect(call.function.name).toBe('record_verdict');
    expect(JSON.parse(call.function.arguments)).toEqual(verdict);
  });

  it('counts oracle calls apart from faulted requests', async () => {
    // Prepare
    const indexes: number[] = [];
    const running = await start(
      (_request, callIndex) => {
        indexes.push(callIndex);
        return { text: `answer ${callIndex}` };
      },
      { firstFaults: ['429', 'none', '500'] },
    );
    const client = clientOf(running);
    // Act
    const first = await client.chat.completions.create({ model: 'judge-model', messages: question });
    const second = await client.chat.completions.create({ model: 'judge-model', messages: question });
    // Assess
    expect([first.choices[0]?.message.content, second.choices[0]?.message.content]).toEqual(['answer 0', 'answer 1']);
    expect(indexes).toEqual([0, 1]);
    expect(running.log.map((entry) => entry.outcome)).toEqual(['429', 'answer', '500', 'answer']);
    expect(running.answered()).toBe(2);
  });
});

describe('retries by the client', () => {
  it.each<[string, FaultPlan['firstFaults'], number]>([
    ['429', ['429', '429'], 429],
    ['500', ['500', '500'], 500],
  ])('retries a %s after retry-after-ms and succeeds', async (outcome, firstFaults, status) => {
    // Prepare
    const running = await start(answerVerdict, { firstFaults });
    // Act
    const { result, elapsedMs } = await timed(() =>
      clientOf(running, { maxRetries: 2 }).chat.completions.create({ model: 'judge-model', messages: question }),
    );
    // Assess
    expect(JSON.parse(result.choices[0]?.message.content ?? '')).toEqual(verdict);
    expect(running.log.map((entry) => [entry.outcome, entry.status])).toEqual([
      [outcome, status],
      [outcome, status],
      ['answer', 200],
    ]);
    expect(running.log.map((entry) => entry.headers['x-stainless-retry-count'])).toEqual(['0', '1', '2']);
    // Two waits of 5 ms; the client's own backoff would take 0.375-0.5 s and then 0.75-1 s.
    expect(elapsedMs).toBeLessThan(300);
  });

  it('waits as long as retry-after-ms says, not its own backoff', async () => {
    // Prepare
    const running = await start(answerVerdict, { firstFaults: ['429'], retryAfterMs: 150 });
    // Act
    const { elapsedMs } = await timed(() => clientOf(running).chat.completions.create({ model: 'judge-model', messages: question }));
    // Assess: at least 150 ms, and well under the client's first default backoff (375-500 ms)
    expect(elapsedMs).toBeGreaterThanOrEqual(145);
    expect(elapsedMs).toBeLessThan(350);
  });

  it('makes maxRetries + 1 attempts, then throws RateLimitError', async () => {
    // Prepare
    const running = await start(answerVerdict, { rateLimit: 1 });
    // Act
    const error = await failureOf(
      clientOf(running, { maxRetries: 2 }).chat.completions.create({ model: 'judge-model', messages: question }),
    );
    // Assess
    expect(error).toBeInstanceOf(OpenAI.RateLimitError);
    expect(running.log).toHaveLength(3);
    expect(running.answered()).toBe(0);
  });

  it.each([
    ['429', { rateLimit: 1 }, OpenAI.RateLimitError, 429],
    ['500', { serverError: 1 }, OpenAI.InternalServerError, 500],
  ])('surfaces a %s at once with maxRetries 0', async (_outcome, faults, errorClass, status) => {
    // Prepare
    const running = await start(answerVerdict, faults);
    // Act
    const error = await failureOf(
      clientOf(running, { maxRetries: 0 }).chat.completions.create({ model: 'judge-model', messages: question }),
    );
    // Assess
    expect(error).toBeInstanceOf(errorClass);
    expect((error as InstanceType<typeof OpenAI.APIError>).status).toBe(status);
    expect(running.log).toHaveLength(1);
  });
});

describe('faults', () => {
  it('answers garbage with content that is not JSON, in the content or in the tool arguments', async () => {
    // Prepare
    const running = await start(answerVerdict, { garbage: 1 });
    const client = clientOf(running);
    const tools = [{ type: 'function' as const, function: { name: 'record_verdict' } }];
    // Act
    const plain = await client.chat.completions.create({ model: 'judge-model', messages: question });
    const forced = await client.chat.completions.create({ model: 'judge-model', messages: question, tools, tool_choice: 'required' });
    // Assess
    const content = plain.choices[0]?.message.content ?? '';
    expect(content).toBe("I think it's relevant!!");
    expect(() => JSON.parse(content)).toThrow(SyntaxError);
    const call = forced.choices[0]?.message.tool_calls?.[0];
    expect(call?.type === 'function' ? call.function.arguments : undefined).toBe("I think it's relevant!!");
    expect(running.log.map((entry) => entry.outcome)).toEqual(['garbage', 'garbage']);
    expect(running.answered()).toBe(0);
  });

  it('refuses response_format with a 400 that the client does not retry', async () => {
    // Prepare
    const running = await start(answerVerdict, { refuseResponseFormat: true });
    // Act
    const error = await failureOf(
      clientOf(running).chat.completions.create({
        model: 'judge-model',
        messages: question,
        response_format: { type: 'json_schema', json_schema: { name: 'verdict', schema: { type: 'object' }, strict: true } },
      }),
    );
    // Assess
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    const badRequest = error as InstanceType<typeof OpenAI.BadRequestError>;
    expect(badRequest.status).toBe(400);
    expect(badRequest.type).toBe('invalid_request_error');
    expect(badRequest.message).toBe('400 response_format json_schema is not supported by this server');
    expect(running.log.map((entry) => entry.outcome)).toEqual(['refused']);
  });

  it('refuses tools with a 400', async () => {
    // Prepare
    const running = await start(answerVerdict, { refuseTools: true });
    const tools = [{ type: 'function' as const, function: { name: 'record_verdict' } }];
    // Act
    const error = await failureOf(clientOf(running).chat.completions.create({ model: 'judge-model', messages: question, tools }));
    // Assess
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect((error as Error).message).toBe('400 tools are not supported by this server');
  });

  it('refuses with a 422 and the refused parameter named, when asked to', async () => {
    const running = await start(answerVerdict, { refuseResponseFormat: ['json_schema'], refusalStatus: 422 });
    const error = await failureOf(
      clientOf(running).chat.completions.create({
        model: 'judge-model',
        messages: question,
        response_format: { type: 'json_schema', json_schema: { name: 'v', schema: { type: 'object' } } },
      }),
    );
    expect(error).toBeInstanceOf(OpenAI.UnprocessableEntityError);
    expect(error).toMatchObject({ status: 422, param: 'response_format' });
    const jsonMode = await clientOf(running).chat.completions.create({
      model: 'judge-model',
      messages: question,
      response_format: { type: 'json_object' },
    });
    expect(jsonMode.choices[0]?.message.content).toBe(JSON.stringify(verdict));
  });

  it.each([
    ['temperature', { temperature: 0 }, { param: 'temperature', code: 'unsupported_value' }],
    ['max_tokens', { max_tokens: 100 }, { param: 'max_tokens', code: 'unsupported_parameter' }],
  ] as const)('refuses %s as a reasoning model does', async (parameter, body, expected) => {
    const running = await start(answerVerdict, { refuseParameters: [parameter] });
    const error = await failureOf(clientOf(running).chat.completions.create({ model: 'judge-model', messages: question, ...body }));
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect(error).toMatchObject({ status: 400, ...expected });
    expect(await clientOf(running).chat.completions.create({ model: 'judge-model', messages: question })).toMatchObject({
      object: 'chat.completion',
    });
  });

  it.each([
    ['content-filter' as const, OpenAI.BadRequestError, { status: 400, code: 'content_filter' }, 1],
    ['insufficient-quota' as const, OpenAI.RateLimitError, { status: 429, code: 'insufficient_quota', type: 'insufficient_quota' }, 3],
  ])('answers a %s fault in the OpenAI error shape', async (fault, errorClass, expected, attempts) => {
    // Prepare: the client retries a 429 (a spent quota included), never a 400
    const running = await start(answerVerdict, { firstFaults: [fault, fault, fault] });
    // Act
    const error = await failureOf(
      clientOf(running, { maxRetries: 2 }).chat.completions.create({ model: 'judge-model', messages: question }),
    );
    // Assess
    expect(error).toBeInstanceOf(errorClass);
    expect(error).toMatchObject(expected);
    expect(running.log.length).toBe(attempts);
  });

  it('sends a refusal, a finish_reason and a reported model as the oracle says', async () => {
    const running = await start(() => ({
      refusal: 'I cannot judge this.',
      finishReason: 'content_filter',
      reportedModel: 'judge-model-2024-08-06',
    }));
    const completion = await clientOf(running).chat.completions.create({ model: 'judge-model', messages: question });
    expect(completion.model).toBe('judge-model-2024-08-06');
    expect(completion.choices[0]).toMatchObject({
      finish_reason: 'content_filter',
      message: { content: null, refusal: 'I cannot judge this.' },
    });
  });

  it('sends retry-after in seconds alone when retryAfterSeconds is set', async () => {
    const running = await start(answerVerdict, { firstFaults: ['429'], retryAfterSeconds: 3 });
    const response = await fetch(`${running.baseUrl}/chat/completions`, {
      method: 'POST',
      body: JSON.stringify({ model: 'm', messages: question }),
    });
    expect([response.status, response.headers.get('retry-after'), response.headers.get('retry-after-ms')]).toEqual([429, '3', null]);
  });

  it('delays a slow answer by slowMs', async () => {
    // Prepare
    const running = await start(answerVerdict, { slow: 1, slowMs: 100 });
    // Act
    const { result, elapsedMs } = await timed(() =>
      clientOf(running).chat.completions.create({ model: 'judge-model', messages: question }),
    );
    // Assess
    expect(JSON.parse(result.choices[0]?.message.content ?? '')).toEqual(verdict);
    expect(elapsedMs).toBeGreaterThanOrEqual(95);
  });

  it('throws APIConnectionTimeoutError when the answer is slower than the timeout and no retry is left', async () => {
    // Prepare
    const running = await start(answerVerdict, { slow: 1, slowMs: 500 });
    // Act
    const error = await failureOf(
      clientOf(running, { maxRetries: 0, timeout: 50 }).chat.completions.create({ model: 'judge-model', messages: question }),
    );
    // Assess
    expect(error).toBeInstanceOf(OpenAI.APIConnectionTimeoutError);
    await expect.poll(() => running.log[0]?.outcome).toBe('abandoned');
    expect(running.answered()).toBe(0);
  });

  it('abandons a slow answer to a client that sent its request and closed the connection at once, as a killed process does', async () => {
    // Prepare: a whole request, then the client's end of the connection, perhaps before the server reads either
    const running = await start(answerVerdict, { slow: 1, slowMs: 30_000 });
    const body = JSON.stringify({ model: 'judge-model', messages: question });
    const { port } = new URL(running.baseUrl);
    const socket = connect(Number(port), '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    // Act
    socket.end(
      `POST /v1/chat/completions HTTP/1.1\r\nhost: 127.0.0.1\r\nauthorization: Bearer test-key\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
    socket.resume();
    await new Promise((resolve) => socket.once('close', resolve));
    // Assess: the request is logged, as abandoned at once rather than answered into a closed connection 30 s later
    await expect.poll(() => running.log[0]?.outcome).toBe('abandoned');
    expect(running.answered()).toBe(0);
  });

  it('is retried by the client after a timeout, with its own backoff since no header came back', async () => {
    // Prepare
    const running = await start(answerVerdict, { firstFaults: ['slow'], slowMs: 500 });
    // Act
    const { result, elapsedMs } = await timed(() =>
      clientOf(running, { maxRetries: 1, timeout: 50 }).chat.completions.create({ model: 'judge-model', messages: question }),
    );
    // Assess: 50 ms timeout, then a default backoff of 0.5 s less up to 25 % jitter
    expect(JSON.parse(result.choices[0]?.message.content ?? '')).toEqual(verdict);
    expect(running.log.map((entry) => entry.outcome)).toEqual(['abandoned', 'answer']);
    expect(elapsedMs).toBeGreaterThanOrEqual(50 + 375 - 5);
  });

  it('gives the same fault sequence for the same seed, and another for another seed', async () => {
    // Prepare
    const running = await start();
    const client = clientOf(running, { maxRetries: 0 });
    const plan = { rateLimit: 0.25, serverError: 0.25, garbage: 0.25 };
    const outcomesFor = async (seed: number): Promise<string[]> => {
      running.setFaults({ ...plan, seed });
      const before = running.log.length;
      for (let request = 0; request < 24; request += 1) {
        await client.chat.completions.create({ model: 'judge-model', messages: question }).catch(() => undefined);
      }
      return running.log.slice(before).map((entry) => entry.outcome);
    };
    // Act
    const first = await outcomesFor(7);
    const again = await outcomesFor(7);
    const other = await outcomesFor(8);
    // Assess
    expect(again).toEqual(first);
    expect(other).not.toEqual(first);
    expect(new Set(first)).toEqual(new Set(['429', '500', 'garbage', 'answer']));
  });

  it('rejects a probability outside [0, 1]', async () => {
    // Prepare
    const running = await start();
    // Act and Assess
    expect(() => running.setFaults({ rateLimit: 2 })).toThrow('Expected rateLimit to be a probability from 0 to 1, got 2');
  });
});

describe('protocol errors', () => {
  it.each([
    ['an unknown route', '/v1/embeddings', '{}', 404, 'unknown_url'],
    ['a malformed body', '/v1/chat/completions', '{"model":', 400, null],
    ['a body without messages', '/v1/chat/completions', '{"model":"judge-model"}', 400, null],
  ])('answers %s in the OpenAI error shape', async (_described, path, body, status, code) => {
    // Prepare
    const running = await start();
    const origin = running.baseUrl.replace(/\/v1$/, '');
    // Act
    const response = await fetch(`${origin}${path}`, { method: 'POST', body, headers: { 'content-type': 'application/json' } });
    // Assess
    expect(response.status).toBe(status);
    const answer = (await response.json()) as { error: { message: string; type: string; code: string | null } };
    expect(answer.error).toMatchObject({ type: 'invalid_request_error', code });
    expect(answer.error.message.length).toBeGreaterThan(0);
    expect(running.log).toHaveLength(0);
  });
});

describe('a rate limit and a fixed latency', () => {
  const post = (running: OpenAiTestServer, content: string) =>
    fetch(`${running.baseUrl}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'judge-model', messages: [{ role: 'user', content }] }),
    });

  it("admits a window's worth of requests, refuses the next at once with the wait until the oldest leaves the window, and says so in OpenAI's headers", async () => {
    // Prepare: 3 requests per 400 ms, answered after 50 ms
    const running = await start(answerVerdict, { latencyMs: 50, requestLimit: { requests: 3, windowMs: 400 } });

    // Act
    const answers = await Promise.all([0, 1, 2, 3].map((index) => post(running, `q${index}`)));
    const refused = answers.find((answer) => answer.status === 429);
    const admitted = answers.filter((answer) => answer.status === 200);

    // Assess
    expect(admitted).toHaveLength(3);
    const wait = Number(refused?.headers.get('retry-after-ms'));
    expect(wait).toBeGreaterThan(300);
    expect(wait).toBeLessThanOrEqual(400);
    expect(refused?.headers.get('x-ratelimit-limit-requests')).toBe('3');
    expect(refused?.headers.get('x-ratelimit-remaining-requests')).toBe('0');
    expect(admitted.map((answer) => answer.headers.get('x-ratelimit-limit-requests'))).toEqual(['3', '3', '3']);
    const refusal = running.log.find((entry) => entry.status === 429);
    const answered = running.log.filter((entry) => entry.status === 200);
    expect((refusal?.answeredAt ?? Number.POSITIVE_INFINITY) - (refusal?.receivedAt ?? 0)).toBeLessThan(40);
    for (const entry of answered) expect((entry.answeredAt ?? 0) - entry.receivedAt).toBeGreaterThanOrEqual(49);
  });

  it('admits again once the oldest admitted request has left the window', async () => {
    // Prepare
    const running = await start(answerVerdict, { requestLimit: { requests: 2, windowMs: 200 } });
    await Promise.all([post(running, 'a'), post(running, 'b')]);

    // Act
    const early = await post(running, 'c');
    await new Promise((resolve) => setTimeout(resolve, Number(early.headers.get('retry-after-ms')) + 5));
    const later = await post(running, 'd');

    // Assess
    expect([early.status, later.status]).toEqual([429, 200]);
  });

  it('sends only retry-after-ms and retry-after when told to leave out the x-ratelimit headers', async () => {
    const running = await start(answerVerdict, { requestLimit: { requests: 1, windowMs: 1_000, headers: false } });
    const [first, second] = await Promise.all([post(running, 'a'), post(running, 'b')]);
    const refused = first?.status === 429 ? first : second;

    expect(refused?.headers.get('retry-after-ms')).not.toBeNull();
    expect(refused?.headers.get('x-ratelimit-remaining-requests')).toBeNull();
  });
});
