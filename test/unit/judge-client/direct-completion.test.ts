import { afterEach, describe, expect, it } from 'vitest';
import { CALL_HEADER } from '../../../shared/judge-client/bounded-retry-fetch.js';
import { answerWith, judgeRequest, startJudgeClient } from '../../support/judge-clients.js';
import type { OpenAiTestServer } from '../../support/openai-test-server.js';

/**
 * A judgment's first attempt goes out without the openai SDK, as the very
 * request the SDK would send; whatever is not an ok answer goes to the SDK
 * as its own first attempt, which it retries and counts as before.
 */
let server: OpenAiTestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const verdict = { rationale: 'on topic', rating: 'yes' };

/** The headers of a request that say who sent it and how; the retry count is the SDK's own. */
function senderHeaders(headers: Readonly<Record<string, string>>): Record<string, string | undefined> {
  const { 'x-stainless-retry-count': _count, 'content-length': _length, ...rest } = headers;
  return rest;
}

describe('DirectCompletions', () => {
  it("sends the first attempt with the SDK's own headers and body, and the SDK's retry after a 500 is the same request", async () => {
    // Arrange: the first attempt is answered 500; the SDK sends the second
    const started = await startJudgeClient(answerWith(verdict), { firstFaults: ['500'], retryAfterMs: 1 });
    server = started.server;

    // Act
    const completion = await started.client.complete(judgeRequest);

    // Assess: one retry, counted by the SDK; both requests alike but for the retry count
    expect(completion).toMatchObject({ ok: true, output: verdict, retries: 1 });
    const [first, second] = server.log;
    expect(server.log.map((entry) => entry.headers['x-stainless-retry-count'])).toEqual(['0', '1']);
    expect(senderHeaders(first?.headers ?? {})).toEqual(senderHeaders(second?.headers ?? {}));
    expect(first?.headers.authorization).toBe('Bearer sk-test-secret');
    expect(first?.headers['user-agent']).toMatch(/^OpenAI\/JS /);
    expect(first?.request).toEqual(second?.request);
    expect(first?.url).toBe(second?.url);
  });

  it('keeps the header that ties an attempt to its judgment in this process', async () => {
    // Arrange
    const started = await startJudgeClient(answerWith(verdict), { firstFaults: ['500'], retryAfterMs: 1 });
    server = started.server;

    // Act
    await started.client.complete(judgeRequest);

    // Assess: neither the direct attempt nor the SDK's carries it
    expect(server.log).toHaveLength(2);
    for (const entry of server.log) expect(entry.headers[CALL_HEADER]).toBeUndefined();
  });
});
