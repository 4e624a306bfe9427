import { afterEach, describe, expect, it } from 'vitest';
import { answerWith, judgeRequest, startJudgeClient } from '../../support/judge-clients.js';
import type { OpenAiTestServer } from '../../support/openai-test-server.js';

/**
 * Time a judgment may take: the wait a server asks for in Retry-After is
 * honoured up to a cap, and every judgment has a total deadline over all its
 * attempts and its repair, after which it is a transient failure.
 */
let server: OpenAiTestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const verdict = { rationale: 'on topic', rating: 'yes' };

describe('JudgeClient time limits', () => {
  it('waits no longer than judge.max_retry_wait_ms when a server asks for retry-after: 20', async () => {
    // Prepare
    const started = await startJudgeClient(
      answerWith(verdict),
      { firstFaults: ['429'], retryAfterSeconds: 20 },
      { maxRetryWaitMs: 100, timeoutMs: 1_000 },
    );
    server = started.server;
    const startedAt = Date.now();

    // Act
    const completion = await started.client.complete(judgeRequest);

    // Assess
    expect(completion).toMatchObject({ ok: true, retries: 1 });
    expect(Date.now() - startedAt).toBeLessThan(2_000);
  }, 30_000);

  it('stops a judgment at judge.call_deadline_ms, over all its attempts, as a transient failure', async () => {
    // Prepare: every answer is slower than the deadline; each attempt alone is within its timeout
    const started = await startJudgeClient(
      answerWith(verdict),
      { slow: 1, slowMs: 1_000 },
      { callDeadlineMs: 300, timeoutMs: 2_000, maxRetries: 4 },
    );
    server = started.server;
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
  }, 30_000);

  it("stops a judgment at the caller's deadline, and does not start a retry it cannot finish", async () => {
    // Prepare: a rate limit that asks for 2 s, and a caller with half a second left
    const started = await startJudgeClient(answerWith(verdict), { rateLimit: 1, retryAfterSeconds: 2 }, { maxRetries: 4 });
    server = started.server;
    const startedAt = Date.now();

    // Act
    const completion = await started.client.complete(judgeRequest, { deadlineAt: Date.now() + 500 });

    // Assess: one request, since the wait asked for outlasts the time left
    expect(completion).toMatchObject({ ok: false, transient: true, error: expect.stringMatching(/^the judgment ran out of time/) });
    expect(server.log.length).toBe(1);
    expect(Date.now() - startedAt).toBeLessThan(1_000);
  }, 30_000);

  it('stops when the caller aborts its signal', async () => {
    const started = await startJudgeClient(answerWith(verdict), { slow: 1, slowMs: 1_000 });
    server = started.server;
    const completion = await started.client.complete(judgeRequest, { signal: AbortSignal.timeout(100) });
    expect(completion).toMatchObject({ ok: false, transient: true, error: expect.stringMatching(/^the judgment ran out of time/) });
  }, 30_000);
});
