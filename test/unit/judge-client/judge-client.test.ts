import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { JudgeClient, type JudgeClientSettings } from '../../../shared/judge-client/judge-client.js';
import { TEST_CLIENT_SETTINGS } from '../../support/judge-clients.js';
import { startOpenAiTestServer, type FaultPlan, type Oracle, type OpenAiTestServer } from '../../support/openai-test-server.js';

const verdictSchema = z.object({ rationale: z.string(), rating: z.enum(['yes', 'no']) });
const messages = [
  { role: 'system' as const, content: 'Judge the passage.' },
  { role: 'user' as const, content: 'Request: a\nPassage: b' },
];
const request = { messages, schema: verdictSchema, schemaName: 'chunk_relevance' };

let server: OpenAiTestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function clientFor(oracle: Oracle, faults?: FaultPlan, settings: Partial<JudgeClientSettings> = {}) {
  server = await startOpenAiTestServer({ oracle, faults });
  const client = new JudgeClient({ ...TEST_CLIENT_SETTINGS, baseUrl: server.baseUrl, ...settings });
  return { client, server };
}

const answer =
  (json: unknown): Oracle =>
  () => ({ json });

describe('JudgeClient', () => {
  it('asks for structured output with the JSON schema, temperature 0, and returns the parsed answer', async () => {
    // Prepare
    const { client, server } = await clientFor(answer({ rationale: 'on topic', rating: 'yes' }));

    // Act
    const completion = await client.complete(request);

    // Assess
    expect(completion).toMatchObject({ ok: true, output: { rationale: 'on topic', rating: 'yes' }, retries: 0 });
    const sent = server.log[0]?.request;
    expect(sent?.temperature).toBe(0);
    expect(sent?.model).toBe('judge-model');
    expect(sent?.response_format).toMatchObject({
      type: 'json_schema',
      json_schema: { name: 'chunk_relevance', strict: true, schema: { type: 'object', required: ['rationale', 'rating'] } },
    });
    expect(completion.usage.inputTokens).toBeGreaterThan(0);
  });

  it('falls back to a forced tool call when the server refuses response_format, and remembers it', async () => {
    const { client, server } = await clientFor(answer({ rationale: 'r', rating: 'no' }), { refuseResponseFormat: true });
    expect(await client.complete(request)).toMatchObject({ ok: true, output: { rating: 'no' } });
    expect(await client.complete(request)).toMatchObject({ ok: true, output: { rating: 'no' } });
    // json_schema and json_object refused once each, then two tool calls: the second judgment goes straight to tools
    expect(server.log.map((entry) => entry.outcome)).toEqual(['refused', 'refused', 'answer', 'answer']);
    expect(server.log[2]?.request.tool_choice).toEqual({ type: 'function', function: { name: 'chunk_relevance' } });
    expect(client.outputMode).toBe('tool');
  });

  it('falls back to JSON in the text, with the schema in the prompt, when tools are refused too', async () => {
    const { client, server } = await clientFor(answer({ rationale: 'r', rating: 'yes' }), {
      refuseResponseFormat: true,
      refuseTools: true,
    });
    expect(await client.complete(request)).toMatchObject({ ok: true, output: { rating: 'yes' } });
    const textRequest = server.log[3]?.request;
    expect(textRequest?.response_format).toBeUndefined();
    expect(textRequest?.tools).toBeUndefined();
    expect(textRequest?.messages[0]?.content).toContain('Reply with only a JSON object that matches this JSON Schema');
  });

  it.each([
    ['a fenced block', '```json\n{"rationale": "fine", "rating": "yes"}\n```'],
    ['prose around the JSON', 'Sure! Here is my verdict: {"rationale": "fine", "rating": "yes"} Hope it helps.'],
    ['"YES\\n" as the rating', '{"rationale": "fine", "rating": "YES\\n"}'],
    ['"Yes." as the rating', '{"rationale": "fine", "rating": "Yes."}'],
    ['the JSON encoded again as a JSON string', JSON.stringify(JSON.stringify({ rationale: 'fine', rating: 'yes' }))],
    ['the JSON with its quotes escaped', '{\\"rationale\\": \\"fine\\", \\"rating\\": \\"yes\\"}'],
    ['the escaped JSON in a fenced block', '```json\n{\\"rationale\\": \\"fine\\", \\"rating\\": \\"yes\\"}\n```'],
  ])('reads %s without a repair request', async (_described, text) => {
    const { client, server } = await clientFor(() => ({ text }));
    expect(await client.complete(request)).toMatchObject({ ok: true, output: { rationale: 'fine', rating: 'yes' } });
    expect(server.log.length).toBe(1);
  });

  it('sends one repair request with the problem when the answer is invalid, and accepts the repaired answer', async () => {
    // Prepare: the first answer lacks the rating, which must not pass by default
    const { client, server } = await clientFor((_request, index) => ({
      json: index === 0 ? { rationale: 'looks fine' } : { rationale: 'fixed', rating: 'no' },
    }));

    // Act
    const completion = await client.complete(request);

    // Assess
    expect(completion).toMatchObject({ ok: true, output: { rationale: 'fixed', rating: 'no' } });
    const repair = server.log[1]?.request.messages ?? [];
    expect(repair.at(-2)).toMatchObject({ role: 'assistant', content: '{"rationale":"looks fine"}' });
    expect(repair.at(-1)?.content).toMatch(/^That answer is not valid: rating: /);
  });

  it('gives an error value, not a verdict, when the repaired answer is still invalid', async () => {
    // Prepare: prose whatever is asked: both response_format modes count as ignored, the tool answer gets one repair
    const { client, server } = await clientFor(() => ({ text: 'I think it is relevant!!' }));

    // Act
    const completion = await client.complete(request);

    // Assess
    expect(completion).toMatchObject({ ok: false, transient: false });
    expect(completion.ok ? '' : completion.error).toMatch(/^invalid answer after one repair request: the answer holds no JSON object/);
    const modes = server.log.map(
      (entry) =>
        (entry.request.response_format as { type?: string } | undefined)?.type ?? (entry.request.tools === undefined ? 'text' : 'tool'),
    );
    expect(modes).toEqual(['json_schema', 'json_object', 'tool', 'tool']);
  });

  it('lets the SDK retry 429 and 500 answers and counts the retries', async () => {
    const { client } = await clientFor(answer({ rationale: 'r', rating: 'yes' }), { firstFaults: ['429', '500', '429'] });
    expect(await client.complete(request)).toMatchObject({ ok: true, retries: 3 });
  });

  it("sends a rate-limited request again past the SDK's retries until the deadline, then fails it as transient and held by the rate limit", async () => {
    // Prepare: every request is refused with a 5 ms wait; the SDK alone would give up after 2 retries
    const { client, server } = await clientFor(
      answer({ rationale: 'r', rating: 'yes' }),
      { rateLimit: 1 },
      { maxRetries: 2, callDeadlineMs: 300 },
    );

    // Act
    const completion = await client.complete(request);

    // Assess: every request the server saw is counted, as a rate-limit refusal and (past the first) a retry
    expect(completion).toMatchObject({ ok: false, transient: true, heldByRateLimit: true });
    expect(completion.ok ? '' : completion.error).toMatch(
      /^the judgment ran out of time: it stopped at its deadline after \d+ ms .*; the case will be tried again/,
    );
    expect(completion.rateLimited).toBeGreaterThan(3);
    // The deadline may cut the last request before the server has it, or before its refusal is read
    expect(completion.retries + 1).toBeGreaterThanOrEqual(server.log.length);
    expect(completion.retries).toBeLessThanOrEqual(server.log.length);
    expect(completion.rateLimited).toBeGreaterThanOrEqual(server.log.length - 1);
    expect(completion.rateLimited).toBeLessThanOrEqual(server.log.length);
  });

  it('reports a timeout as a transient error value', async () => {
    const { client } = await clientFor(
      answer({ rationale: 'r', rating: 'yes' }),
      { slow: 1, slowMs: 400 },
      { timeoutMs: 50, maxRetries: 0 },
    );
    expect(await client.complete(request)).toMatchObject({ ok: false, transient: true, error: 'the judge call timed out' });
  });

  it('sends the API key only in the Authorization header', async () => {
    const { client, server } = await clientFor(answer({ rationale: 'r', rating: 'yes' }));
    await client.complete(request);
    const entry = server.log[0];
    expect(entry?.authorization).toBe('Bearer sk-test-secret');
    const elsewhere = Object.entries(entry?.headers ?? {}).filter(
      ([name, value]) => name !== 'authorization' && value.includes('sk-test-secret'),
    );
    expect(elsewhere).toEqual([]);
    expect(JSON.stringify(entry?.request)).not.toContain('sk-test-secret');
  });

  it.each([
    { status: 401 as const, form: 'whole' as const },
    { status: 401 as const, form: 'truncated' as const },
    { status: 403 as const, form: 'whole' as const },
  ])('reports a $status that repeats the key ($form) as a refusal, without retrying and without the key', async ({ status, form }) => {
    // Prepare: a gateway that repeats the key it was sent in its error body
    const apiKey = 'sk-proj-Q7rT2wX9zL4mN8bV3cK6hJ1f';
    const { client, server } = await clientFor(answer({ rationale: 'r', rating: 'yes' }), { echoKey: { status, form } }, { apiKey });

    // Act
    const completion = await client.complete(request);

    // Assess: one request, a permanent error that says what to check, and no 8 characters of the key in a row
    expect(server.log.length).toBe(1);
    expect(completion).toMatchObject({ ok: false, transient: false, retries: 0 });
    const error = completion.ok ? '' : completion.error;
    expect(error).toMatch(
      new RegExp(`^the judge server refused the credentials \\(HTTP ${status}: Incorrect API key provided: \\[redacted\\]`),
    );
    expect(error).toMatch(/check OPENAI_API_KEY and OPENAI_BASE_URL$/);
    expect(piecesOf(apiKey).filter((piece) => error.includes(piece))).toEqual([]);
  });

  it('makes no further request once the server has refused the key with a 401', async () => {
    // Prepare
    const { client, server } = await clientFor(answer({ rationale: 'r', rating: 'yes' }), { echoKey: { status: 401, form: 'whole' } });
    const first = await client.complete(request);

    // Act
    const second = await client.complete(request);

    // Assess
    expect(server.log.length).toBe(1);
    expect(second).toEqual({ ...first, retries: 0 });
  });

  it('removes the key from a server error that repeats it, and keeps the error transient', async () => {
    const { client } = await clientFor(
      answer({ rationale: 'r', rating: 'yes' }),
      { echoKey: { status: 500, form: 'whole' } },
      { maxRetries: 1 },
    );
    const completion = await client.complete(request);
    expect(completion).toMatchObject({
      ok: false,
      transient: true,
      error: expect.stringMatching(/^judge server answered 500: .*Incorrect API key provided: \[redacted\]\./),
    });
    expect(JSON.stringify(completion)).not.toContain('sk-test-secret');
  });

  it('says to check the base URL when a 404 is not about the model, as when /v1 is missing from it', async () => {
    // Prepare: the server's root as the base URL, so the call goes to /chat/completions rather than /v1/chat/completions
    server = await startOpenAiTestServer({ oracle: answer({ rationale: 'r', rating: 'yes' }) });
    const root = server.baseUrl.replace(/\/v1$/, '');
    const client = new JudgeClient({ ...TEST_CLIENT_SETTINGS, baseUrl: root, maxRetries: 0 });

    // Act
    const completion = await client.complete(request);

    // Assess: not only the server's "unknown URL"
    expect(completion).toMatchObject({ ok: false, transient: false });
    expect(completion.ok ? '' : completion.error).toBe(
      'judge server answered 404: Unknown request URL: POST /chat/completions; check the base URL (OPENAI_API_KEY and OPENAI_BASE_URL): ' +
        "it is the API's root, which for OpenAI and most OpenAI-compatible servers ends in /v1 (https://api.openai.com/v1, http://localhost:8000/v1)",
    );
  });

  it('says the server has no such model at a 404 about the model, and asks it no more, as for a refused key', async () => {
    // Prepare: OpenAI's answer for a model that does not exist, from a server of this test's own
    const server404 = await answering404({
      error: {
        message: 'The model `gpt-nope` does not exist or you do not have access to it.',
        type: 'invalid_request_error',
        code: 'model_not_found',
      },
    });
    const client = new JudgeClient({ ...TEST_CLIENT_SETTINGS, baseUrl: `${server404.origin}/v1`, maxRetries: 0 });

    // Act: a judgment, and the next one
    const completion = await client.complete(request);
    const next = await client.complete(request);
    await server404.close();

    // Assess: the server's words, what to check, and one request in all
    expect(completion).toMatchObject({ ok: false, transient: false });
    expect(completion.ok ? '' : completion.error).toBe(
      'the judge server has no such model (HTTP 404: The model `gpt-nope` does not exist or you do not have access to it.); ' +
        "check the judge's model (ASSAY_JUDGE_MODEL, or judge.model in the config): the server lists its models at GET /models under the base URL",
    );
    expect(next).toEqual({ ...completion, retries: 0 });
    expect(server404.requests()).toBe(1);
  });

  it("says Azure OpenAI has no such deployment at Azure's 404, naming the settings, and asks no more", async () => {
    // Prepare: Azure's answer for a deployment name it does not have
    const azure = await answering404({
      error: {
        code: 'DeploymentNotFound',
        message:
          'The API deployment for this resource does not exist. If you created the deployment within the last 5 minutes, please wait a moment and try again.',
      },
    });
    const client = new JudgeClient({ ...TEST_CLIENT_SETTINGS, baseUrl: `${azure.origin}/openai/deployments/judge-prod`, maxRetries: 0 });

    // Act
    const completion = await client.complete(request);
    const next = await client.complete(request);
    await azure.close();

    // Assess: not the advice to end the base URL in /v1, which is OpenAI's
    expect(completion.ok ? '' : completion.error).toBe(
      'Azure OpenAI has no such deployment (HTTP 404: The API deployment for this resource does not exist. If you created the deployment within the last 5 minutes, please wait a moment and try again.); ' +
        'check judge.azure.deployment and judge.azure.endpoint (a deployment made minutes ago may not answer yet)',
    );
    expect(next).toEqual({ ...completion, retries: 0 });
    expect(azure.requests()).toBe(1);
  });

  it('keeps calling after a 403, which may concern one request only', async () => {
    // Prepare
    const { client, server } = await clientFor(answer({ rationale: 'r', rating: 'yes' }), { echoKey: { status: 403, form: 'whole' } });
    await client.complete(request);
    server.setFaults({});

    // Act
    const next = await client.complete(request);

    // Assess
    expect(next).toMatchObject({ ok: true });
    expect(server.log.length).toBe(2);
  });
});

/** Every run of 8 characters of a key: none may appear anywhere. */
function piecesOf(key: string): string[] {
  return Array.from({ length: key.length - 7 }, (_, start) => key.slice(start, start + 8));
}

/** A loopback server answering every request with HTTP 404 and `body` as JSON, as a server without the model or deployment asked for does. */
async function answering404(body: unknown): Promise<{ origin: string; requests: () => number; close: () => Promise<void> }> {
  let requests = 0;
  const server = createServer((_request, response) => {
    requests += 1;
    response.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests: () => requests,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
