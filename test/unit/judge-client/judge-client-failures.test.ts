import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { JudgeClient } from '../../../shared/judge-client/judge-client.js';
import { answerWith, judgeRequest, startJudgeClient, TEST_CLIENT_SETTINGS } from '../../support/judge-clients.js';
import type { OpenAiTestServer } from '../../support/openai-test-server.js';

/**
 * What the judge client makes of a server's refusals: a 400 about one
 * request stays that request's error, a parameter the model rejects is
 * dropped, a refusal or a cut answer is a clear error without a repair call,
 * and a spent quota stops the run's calls at once.
 */
let server: OpenAiTestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const verdict = { rationale: 'on topic', rating: 'yes' };

describe('JudgeClient: 400s by what they say', () => {
  it('fails only the call a content filter refused, and keeps the structured output mode for the next calls', async () => {
    // Prepare
    const started = await startJudgeClient(answerWith(verdict), { firstFaults: ['content-filter'] });
    server = started.server;

    // Act
    const filtered = await started.client.complete(judgeRequest);
    const next = await started.client.complete(judgeRequest);

    // Assess: one refused request, no step down, the next call still asks for the JSON schema
    expect(filtered).toMatchObject({
      ok: false,
      transient: false,
      error: expect.stringMatching(/content (management )?polic|content filter/i),
    });
    expect(next).toMatchObject({ ok: true, output: verdict });
    expect(server.log.map((entry) => entry.outcome)).toEqual(['content-filter', 'answer']);
    expect(server.log[1]?.request.response_format).toMatchObject({ type: 'json_schema' });
    expect(started.client.outputMode).toBe('json_schema');
  });

  it('drops temperature for a model that rejects it, keeps the JSON schema mode, and remembers', async () => {
    // Prepare: a reasoning model that accepts only its default temperature
    const started = await startJudgeClient(answerWith(verdict), { refuseParameters: ['temperature'] });
    server = started.server;

    // Act
    const first = await started.client.complete(judgeRequest);
    const second = await started.client.complete(judgeRequest);

    // Assess: one refusal in all, then the same mode without temperature
    expect(first).toMatchObject({ ok: true, output: verdict });
    expect(second).toMatchObject({ ok: true, output: verdict });
    expect(server.log.map((entry) => entry.outcome)).toEqual(['refused', 'answer', 'answer']);
    expect(
      server.log
        .slice(1)
        .map((entry) => [entry.request.temperature, (entry.request.response_format as { type?: string } | undefined)?.type]),
    ).toEqual([
      [undefined, 'json_schema'],
      [undefined, 'json_schema'],
    ]);
  });

  it('sends max_tokens, and max_completion_tokens instead to a model that rejects max_tokens', async () => {
    // Prepare
    const started = await startJudgeClient(answerWith(verdict), { refuseParameters: ['max_tokens'] }, { maxTokens: 300 });
    server = started.server;

    // Act
    const completion = await started.client.complete(judgeRequest);

    // Assess
    expect(completion).toMatchObject({ ok: true, output: verdict });
    expect(server.log.map((entry) => [entry.request.max_tokens, entry.request.max_completion_tokens])).toEqual([
      [300, undefined],
      [undefined, 300],
    ]);
  });
});

describe('JudgeClient: what the answer says besides its text', () => {
  it('reports a refusal with its text, scrubbed, without a repair call', async () => {
    // Prepare: the model refuses, and its refusal happens to quote a key
    const started = await startJudgeClient(() => ({ refusal: 'I cannot help judge this request (token sk-live-ABCDEFGH12345678).' }));
    server = started.server;

    // Act
    const completion = await started.client.complete(judgeRequest);

    // Assess
    expect(completion).toMatchObject({ ok: false, transient: false });
    const error = completion.ok ? '' : completion.error;
    expect(error).toMatch(/^the judge model refused to answer: I cannot help judge this request \(token \[redacted\]\)\.$/);
    expect(server.log.length).toBe(1);
  });

  it.each([
    ['length', /^the answer was cut at max_tokens=64; raise judge\.max_tokens/],
    ['content_filter', /^the judge server's content filter stopped the answer/],
  ] as const)('reports finish_reason %s as a clear error without a repair call', async (finishReason, message) => {
    // Prepare: an answer cut in the middle of its JSON
    const started = await startJudgeClient(() => ({ text: '{"rationale": "The passage discusses', finishReason }), {}, { maxTokens: 64 });
    server = started.server;

    // Act
    const completion = await started.client.complete(judgeRequest);

    // Assess
    expect(completion).toMatchObject({ ok: false, transient: false, error: expect.stringMatching(message) });
    expect(server.log.length).toBe(1);
  });
});

describe('JudgeClient: a spent quota', () => {
  it('fails at once without retrying, says to check billing, and fails the later calls without a request', async () => {
    // Prepare
    const started = await startJudgeClient(
      answerWith(verdict),
      { firstFaults: ['insufficient-quota', 'insufficient-quota', 'insufficient-quota'] },
      { maxRetries: 4 },
    );
    server = started.server;

    // Act
    const first = await started.client.complete(judgeRequest);
    const second = await started.client.complete(judgeRequest);

    // Assess
    expect(first).toMatchObject({
      ok: false,
      transient: false,
      retries: 0,
      error: expect.stringMatching(/quota.*check the billing of the judge account/i),
    });
    expect(second).toEqual({ ...first, retries: 0 });
    expect(server.log.length).toBe(1);
  });
});

/**
 * A server that answers every request with `status`, `headers` and `body`, whatever it asks: a web page
 * where the API should be, another API's JSON, an http:// front that sends everything to https://.
 */
async function startAnsweringServer(
  status: number,
  headers: Record<string, string>,
  body: string,
): Promise<{ baseUrl: string; requests: () => number; close: () => Promise<void> }> {
  let requests = 0;
  const answering = createServer((request, response) => {
    requests += 1;
    request.resume();
    request.on('end', () => {
      response.writeHead(status, { 'content-type': 'text/html', ...headers });
      response.end(body);
    });
  });
  await new Promise<void>((resolve) => answering.listen(0, '127.0.0.1', () => resolve()));
  const baseUrl = `http://127.0.0.1:${(answering.address() as AddressInfo).port}/v1`;
  return { baseUrl, requests: () => requests, close: () => new Promise((resolve) => answering.close(() => resolve())) };
}

describe('JudgeClient: a 200 that is no chat completion', () => {
  it.each([
    [
      'a web page (a base URL that names a site, not its API)',
      'text/html',
      '<!doctype html><html><head><title>Chat</title></head><body>sk-test-secret</body></html>',
      'no chat completion (text, not JSON): "<!doctype html><html><head><title>Chat</title></head><body>[redacted]</body></html>"',
    ],
    [
      "another API's JSON",
      'application/json',
      '{"message": {"role": "assistant", "content": "yes"}, "done": true}',
      'no chat completion (Invalid input: expected array, received undefined at choices): "{\\"message\\":{\\"role\\":\\"assistant\\",\\"content\\":\\"yes\\"},\\"done\\":true}"',
    ],
  ])('fails the judgment, not transient, naming what came instead of %s', async (_described, contentType, body, said) => {
    // Prepare
    const page = await startAnsweringServer(200, { 'content-type': contentType }, body);
    const client = new JudgeClient({ ...TEST_CLIENT_SETTINGS, baseUrl: page.baseUrl });

    try {
      // Act
      const completion = await client.complete(judgeRequest);

      // Assess: the key in the page is redacted
      expect(completion).toMatchObject({
        ok: false,
        transient: false,
        error: `the judge server at ${page.baseUrl} answered with ${said}; check that OPENAI_BASE_URL (or the config's judge base_url) names an OpenAI-compatible server`,
      });
    } finally {
      await page.close();
    }
  });
});

describe('JudgeClient: a redirect', () => {
  it('is not followed: the judgment fails, not transient, once, naming where to and the base URL to give', async () => {
    // Prepare
    const front = await startAnsweringServer(301, { location: 'https://judge.example/v1/chat/completions' }, '<html>301</html>');
    const client = new JudgeClient({ ...TEST_CLIENT_SETTINGS, baseUrl: front.baseUrl });

    try {
      // Act
      const completion = await client.complete(judgeRequest);

      // Assess: one request, and nothing sent to the other address
      expect(completion).toMatchObject({
        ok: false,
        transient: false,
        error:
          'the judge server redirects the request (HTTP 301) to https://judge.example/v1/chat/completions; the judge client follows no redirect, ' +
          'so that its key goes to no other address: give the address it redirects to as the base URL (OPENAI_API_KEY and OPENAI_BASE_URL), ' +
          'such as https://judge.example/v1',
      });
      expect(front.requests()).toBe(1);
    } finally {
      await front.close();
    }
  });

  it('says so when the redirect names no address', async () => {
    const front = await startAnsweringServer(307, {}, '<html>307</html>');
    const client = new JudgeClient({ ...TEST_CLIENT_SETTINGS, baseUrl: front.baseUrl });

    try {
      const completion = await client.complete(judgeRequest);

      expect(completion).toMatchObject({
        ok: false,
        transient: false,
        error: expect.stringMatching(
          /^the judge server redirects the request \(HTTP 307\) to another address it does not name; .*\(its API root, without \/chat\/completions\)$/,
        ),
      });
    } finally {
      await front.close();
    }
  });
});
