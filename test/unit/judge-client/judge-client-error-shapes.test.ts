import { afterEach, describe, expect, it } from 'vitest';
import { answerWith, judgeRequest, startJudgeClient } from '../../support/judge-clients.js';
import type { ErrorShape, OpenAiTestServer } from '../../support/openai-test-server.js';

/**
 * Servers that speak OpenAI but write their errors in another shape (vLLM's
 * fields at the top level, FastAPI's `detail`): the client reads what they
 * say exactly as it reads OpenAI's nested error.
 */
let server: OpenAiTestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const verdict = { rationale: 'on topic', rating: 'yes' };
const OTHER_SHAPES: readonly { shape: ErrorShape; status: 400 | 422 }[] = [
  { shape: 'top-level', status: 400 },
  { shape: 'top-level', status: 422 },
  { shape: 'fastapi', status: 400 },
  { shape: 'fastapi', status: 422 },
];

describe("JudgeClient: error bodies in other shapes than OpenAI's", () => {
  it.each(OTHER_SHAPES)(
    "steps down the mode ladder on a $shape refusal with status $status, as for OpenAI's shape",
    async ({ shape, status }) => {
      // Prepare
      const started = await startJudgeClient(answerWith(verdict), { refuseResponseFormat: true, refusalStatus: status, errorShape: shape });
      server = started.server;

      // Act
      const first = await started.client.complete(judgeRequest);
      const second = await started.client.complete(judgeRequest);

      // Assess: json_schema and json_object refused once each, then tool calls
      expect(first).toMatchObject({ ok: true, output: verdict });
      expect(second).toMatchObject({ ok: true, output: verdict });
      expect(server.log.map((entry) => entry.outcome)).toEqual(['refused', 'refused', 'answer', 'answer']);
      expect(started.client.outputMode).toBe('tool');
    },
  );

  it('reads a content filter from a top-level error, fails that call only and keeps the mode', async () => {
    // Prepare
    const started = await startJudgeClient(answerWith(verdict), { firstFaults: ['content-filter'], errorShape: 'top-level' });
    server = started.server;

    // Act
    const filtered = await started.client.complete(judgeRequest);

    // Assess
    expect(filtered).toMatchObject({
      ok: false,
      transient: false,
      error: expect.stringMatching(/^the judge server's content filter refused this prompt \(HTTP 400: The response was filtered/),
    });
    expect(started.client.outputMode).toBe('json_schema');
  });

  it('drops a sampling parameter a top-level error refuses', async () => {
    // Prepare
    const started = await startJudgeClient(answerWith(verdict), { refuseParameters: ['temperature'], errorShape: 'top-level' });
    server = started.server;

    // Act
    const completion = await started.client.complete(judgeRequest);

    // Assess
    expect(completion).toMatchObject({ ok: true, output: verdict });
    expect(server.log.map((entry) => [entry.outcome, entry.request.temperature])).toEqual([
      ['refused', 0],
      ['answer', undefined],
    ]);
  });

  it('reads a spent quota from a top-level 429: no retry, and no later request', async () => {
    // Prepare
    const started = await startJudgeClient(answerWith(verdict), { firstFaults: ['insufficient-quota'], errorShape: 'top-level' });
    server = started.server;

    // Act
    const first = await started.client.complete(judgeRequest);
    const second = await started.client.complete(judgeRequest);

    // Assess
    expect(first).toMatchObject({
      ok: false,
      transient: false,
      error: expect.stringMatching(/^the judge account has no quota left \(HTTP 429: You exceeded your current quota/),
    });
    expect(second).toMatchObject({ ok: false, error: (first as { error: string }).error });
    expect(server.log.map((entry) => entry.outcome)).toEqual(['insufficient-quota']);
  });
});
