import { afterEach, describe, expect, it } from 'vitest';
import { answerWith, judgeRequest, startJudgeClient } from '../../support/judge-clients.js';
import type { ChatRequest, OpenAiTestServer } from '../../support/openai-test-server.js';

/**
 * The output-mode ladder: json_schema, then json_object with the schema in
 * the prompt, then a forced tool call, then plain text with the schema in the
 * prompt. The client steps down when a server refuses a mode (400 or 422) or
 * ignores it (prose where JSON was asked), only ever down, and concurrent
 * calls wait for one probe instead of each discovering the refusal.
 */
let server: OpenAiTestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const verdict = { rationale: 'on topic', rating: 'yes' };
const formatOf = (request: ChatRequest | undefined) => (request?.response_format as { type?: string } | undefined)?.type;
const modeOf = (request: ChatRequest | undefined) => formatOf(request) ?? (request?.tools === undefined ? 'text' : 'tool');

describe('JudgeClient output modes', () => {
  it.each([400, 422] as const)('steps down from json_schema to json_object, with the schema in the prompt, on a %s refusal', async (refusalStatus) => {
    // Prepare
    const started = await startJudgeClient(answerWith(verdict), { refuseResponseFormat: ['json_schema'], refusalStatus });
    server = started.server;

    // Act
    const completion = await started.client.complete(judgeRequest);

    // Assess
    expect(completion).toMatchObject({ ok: true, output: verdict });
    expect(server.log.map((entry) => [entry.status, modeOf(entry.request)])).toEqual([
      [refusalStatus, 'json_schema'],
      [200, 'json_object'],
    ]);
    expect(server.log[1]?.request.messages[0]?.content).toContain('Reply with only a JSON object that matches this JSON Schema');
    expect(started.client.outputMode).toBe('json_object');
  });

  it('walks the whole ladder down to plain text when every structured mode is refused', async () => {
    const started = await startJudgeClient(answerWith(verdict), { refuseResponseFormat: true, refuseTools: true, refusalStatus: 422 });
    server = started.server;
    expect(await started.client.complete(judgeRequest)).toMatchObject({ ok: true, output: verdict });
    expect(server.log.map((entry) => modeOf(entry.request))).toEqual(['json_schema', 'json_object', 'tool', 'text']);
  });

  it('retries one step down when a server ignores json_schema and answers prose, and remembers after two such answers', async () => {
    // Prepare: a server that drops response_format json_schema silently and answers in prose, but follows json_object
    const oracle = (request: ChatRequest) => (formatOf(request) === 'json_schema' ? { text: 'The passage is relevant to the request.' } : { json: verdict });
    const started = await startJudgeClient(oracle);
    server = started.server;

    // Act
    const results = [];
    for (let call = 0; call < 3; call++) results.push(await started.client.complete(judgeRequest));

    // Assess: no repair requests; the third call goes straight to json_object
    expect(results.map((result) => result.ok)).toEqual([true, true, true]);
    expect(server.log.map((entry) => modeOf(entry.request))).toEqual(['json_schema', 'json_object', 'json_schema', 'json_object', 'json_object']);
    expect(started.client.outputMode).toBe('json_object');
  });

  it('makes at most one extra request when 20 concurrent calls meet a server that refuses json_schema', async () => {
    // Prepare: answers take a moment, so all 20 calls are in flight together
    const started = await startJudgeClient(answerWith(verdict), { refuseResponseFormat: ['json_schema'], slow: 1, slowMs: 30 }, { maxRetries: 0 });
    server = started.server;

    // Act
    const completions = await Promise.all(Array.from({ length: 20 }, () => started.client.complete(judgeRequest)));

    // Assess
    expect(completions.every((completion) => completion.ok)).toBe(true);
    expect(server.log.length).toBeLessThanOrEqual(21);
    expect(server.log.filter((entry) => entry.outcome === 'refused').length).toBe(1);
  });

  it('never steps back up: once a call has gone to plain text, no later request asks for a higher mode', async () => {
    // Prepare: every structured mode refused, and answers of mixed speed, so late refusals arrive after the step down
    const started = await startJudgeClient(answerWith(verdict), { refuseResponseFormat: true, refuseTools: true, slow: 0.5, slowMs: 40, seed: 7 }, { maxRetries: 0 });
    server = started.server;

    // Act
    const completions = await Promise.all(Array.from({ length: 20 }, () => started.client.complete(judgeRequest)));
    const after = await started.client.complete(judgeRequest);

    // Assess
    expect([...completions, after].every((completion) => completion.ok)).toBe(true);
    const modes = server.log.map((entry) => modeOf(entry.request));
    expect(modes.slice(modes.indexOf('text')).filter((mode) => mode !== 'text')).toEqual([]);
    expect(started.client.outputMode).toBe('text');
  });
});
