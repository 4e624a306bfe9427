import { afterEach, describe, expect, it } from 'vitest';
import { answerWith, judgeRequest, startJudgeClient } from '../../support/judge-clients.js';
import type { ChatRequest, OpenAiTestServer } from '../../support/openai-test-server.js';

/**
 * The output-mode ladder: json_schema, then json_object with the schema in
 * the prompt, then a forced tool call, then plain text with the schema in the
 * prompt. The client steps down when a server refuses a mode (400 or 422) or
 * ignores it (prose where JSON was asked), only ever down; concurrent calls
 * go out at once rather than wait for one probe, so the pipe is full from
 * the first request.
 */
let server: OpenAiTestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const verdict = { rationale: 'on topic', rating: 'yes' };
const formatOf = (request: ChatRequest | undefined) => (request?.response_format as { type?: string } | undefined)?.type;
const modeOf = (request: ChatRequest | undefined) => formatOf(request) ?? (request?.tools === undefined ? 'text' : 'tool');
/** The same judge request about the passage numbered `index`, so the server's log tells the calls apart. */
const requestAbout = (index: number) => ({
  ...judgeRequest,
  messages: [
    { role: 'system' as const, content: 'Judge the passage.' },
    { role: 'user' as const, content: `Request: a\nPassage: ${index}` },
  ],
});
/** The modes the requests of the call about passage `index` asked for, in order of arrival. */
const modesOf = (index: number) =>
  (server?.log ?? [])
    .filter((entry) => entry.request.messages.some((message) => message.content === `Request: a\nPassage: ${index}`))
    .map((entry) => modeOf(entry.request));

describe('JudgeClient output modes', () => {
  it.each([400, 422] as const)(
    'steps down from json_schema to json_object, with the schema in the prompt, on a %s refusal',
    async (refusalStatus) => {
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
    },
  );

  it('walks the whole ladder down to plain text when every structured mode is refused', async () => {
    const started = await startJudgeClient(answerWith(verdict), { refuseResponseFormat: true, refuseTools: true, refusalStatus: 422 });
    server = started.server;
    expect(await started.client.complete(judgeRequest)).toMatchObject({ ok: true, output: verdict });
    expect(server.log.map((entry) => modeOf(entry.request))).toEqual(['json_schema', 'json_object', 'tool', 'text']);
  });

  it('retries one step down when a server ignores json_schema and answers prose, and remembers after two such answers', async () => {
    // Prepare: a server that drops response_format json_schema silently and answers in prose, but follows json_object
    const oracle = (request: ChatRequest) =>
      formatOf(request) === 'json_schema' ? { text: 'The passage is relevant to the request.' } : { json: verdict };
    const started = await startJudgeClient(oracle);
    server = started.server;

    // Act
    const results = [];
    for (let call = 0; call < 3; call++) results.push(await started.client.complete(judgeRequest));

    // Assess: no repair requests; the third call goes straight to json_object
    expect(results.map((result) => result.ok)).toEqual([true, true, true]);
    expect(server.log.map((entry) => modeOf(entry.request))).toEqual([
      'json_schema',
      'json_object',
      'json_schema',
      'json_object',
      'json_object',
    ]);
    expect(started.client.outputMode).toBe('json_object');
  });

  it('sends 20 concurrent calls at once in json_schema against a server that refuses it, each once more in json_object, and later calls start there', async () => {
    // Prepare: answers (refusals too) take a moment, long enough that all 20 calls are in flight together on a busy machine (30 ms was not); each call asks about its own passage
    const started = await startJudgeClient(
      answerWith(verdict),
      { refuseResponseFormat: ['json_schema'], slow: 1, slowMs: 200 },
      { maxRetries: 0 },
    );
    server = started.server;

    // Act
    const completions = await Promise.all(Array.from({ length: 20 }, (_, index) => started.client.complete(requestAbout(index))));
    const later = await started.client.complete(requestAbout(20));

    // Assess: no call waited for another; each was refused once and sent again one step down, a retry in its usage
    expect(completions.map((completion) => [completion.ok, completion.retries])).toEqual(Array.from({ length: 20 }, () => [true, 1]));
    expect(Array.from({ length: 20 }, (_, index) => modesOf(index))).toEqual(
      Array.from({ length: 20 }, () => ['json_schema', 'json_object']),
    );
    expect(server.log.slice(0, 20).map((entry) => modeOf(entry.request))).toEqual(Array.from({ length: 20 }, () => 'json_schema'));
    expect({ ok: later.ok, retries: later.retries, modes: modesOf(20) }).toEqual({ ok: true, retries: 0, modes: ['json_object'] });
  });

  it('never steps back up: a call only goes down the ladder, and once every mode but text is refused, later calls ask for text alone', async () => {
    // Prepare: every structured mode refused, and answers of mixed speed, so late refusals arrive after the step down
    const started = await startJudgeClient(
      answerWith(verdict),
      { refuseResponseFormat: true, refuseTools: true, slow: 0.5, slowMs: 40, seed: 7 },
      { maxRetries: 0 },
    );
    server = started.server;

    // Act
    const completions = await Promise.all(Array.from({ length: 20 }, (_, index) => started.client.complete(requestAbout(index))));
    const after = await started.client.complete(requestAbout(20));

    // Assess: within each call the modes only go down, and each ends in text
    expect([...completions, after].every((completion) => completion.ok)).toBe(true);
    const ladder = ['json_schema', 'json_object', 'tool', 'text'];
    for (let index = 0; index < 20; index++) {
      const steps = modesOf(index).map((mode) => ladder.indexOf(mode));
      expect(steps).toEqual([...steps].sort((left, right) => left - right));
      expect(steps.at(-1)).toBe(3);
    }
    expect(modesOf(20)).toEqual(['text']);
    expect(started.client.outputMode).toBe('text');
  });
});
