import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { BatchAnswer, BatchRequest } from '../../../shared/schema/batch-request.js';
import { ChatBatchCompleter } from '../../../shared/batch-providers/chat-batch-completer.js';
import type { CompletionRequest, JudgeCompleter, JudgeCompletion } from '../../../shared/judge-answers/judge-completion.js';

/**
 * A batch judgment replayed from the answers its run has collected: each
 * request is the one the online client would send, looked up by id; the
 * first without an answer makes the judgment wait for it. The answers here
 * are written as a job would have returned them.
 */
const verdictSchema = z.object({ rationale: z.string(), rating: z.enum(['yes', 'no']) });
const request: CompletionRequest = {
  messages: [
    { role: 'system', content: 'Judge the passage.' },
    { role: 'user', content: 'Request: a\nPassage: b' },
  ],
  schema: verdictSchema,
  schemaName: 'chunk_relevance',
  batch: { runId: 'r-0000000000000001', judge: 'chunk_relevance', sample: 0 },
};

/** A run's answers in memory, as the store holds them after a job was collected. */
function answers() {
  const byId = new Map<string, BatchAnswer>();
  return {
    answerOf: async (_runId: string, id: string) => byId.get(id),
    answer: (awaited: BatchRequest | undefined, answer: BatchAnswer['answer']) => {
      if (awaited === undefined) throw new Error('no request was awaited');
      byId.set(awaited.id, { id: awaited.id, job: 'job-1', answer });
    },
  };
}

const completion = (content: string, usage = { prompt_tokens: 40, completion_tokens: 9 }) => ({
  kind: 'response' as const,
  status: 200,
  body: {
    id: 'chatcmpl-1',
    model: 'judge-model',
    choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content } }],
    usage,
  },
});

function completer(run: ReturnType<typeof answers>, online?: JudgeCompleter): ChatBatchCompleter {
  return new ChatBatchCompleter({
    bodyModel: 'judge-model',
    model: 'judge-model',
    temperature: 0,
    maxTokens: 1024,
    answerOf: run.answerOf,
    ...(online === undefined ? {} : { online }),
  });
}

const awaited = (outcome: JudgeCompletion): BatchRequest | undefined => (outcome.ok ? undefined : outcome.awaitingBatch);

describe('a judgment replayed from batch answers', () => {
  it('waits for its first request, built as the online client builds it, then reads the answer as online', async () => {
    // Prepare
    const run = answers();
    const client = completer(run);

    // Act
    const first = await client.complete(request);
    run.answer(awaited(first), completion('{"rationale": "on topic", "rating": "yes"}'));
    const second = await client.complete(request);

    // Assess
    expect(first).toMatchObject({ ok: false, transient: true, usage: { inputTokens: 0, outputTokens: 0 } });
    expect(awaited(first)).toMatchObject({ judge: 'chunk_relevance', model: 'judge-model', sample: 0, attempt: 0 });
    expect(awaited(first)?.body).toEqual({
      model: 'judge-model',
      temperature: 0,
      max_tokens: 1024,
      messages: request.messages,
      response_format: {
        type: 'json_schema',
        json_schema: { name: 'chunk_relevance', schema: expect.objectContaining({ type: 'object' }), strict: true },
      },
    });
    expect(second).toMatchObject({
      ok: true,
      output: { rationale: 'on topic', rating: 'yes' },
      // The answer's tokens were counted when its job was collected (job-collection.ts), not again by the judgment that reads it.
      usage: { inputTokens: 0, outputTokens: 0 },
      retries: 0,
      pricing: 'batch',
    });
  });

  it("reads who answered from the job's answer: its model and system_fingerprint", async () => {
    // Prepare: the answer line as OpenAI's batch output carries it
    const run = answers();
    const client = completer(run);
    const answered = completion('{"rationale": "on topic", "rating": "yes"}');

    // Act
    run.answer(awaited(await client.complete(request)), {
      ...answered,
      body: { ...answered.body, model: 'judge-model-2026-01-01', system_fingerprint: 'fp_batch' },
    });
    const outcome = await client.complete(request);

    // Assess
    expect(outcome).toMatchObject({ ok: true, reportedModel: 'judge-model-2026-01-01', systemFingerprint: 'fp_batch', pricing: 'batch' });
  });

  it('asks for a repair in a later job when the answer does not match the schema, and counts both requests', async () => {
    const run = answers();
    const client = completer(run);
    run.answer(awaited(await client.complete(request)), completion('{"rating": "maybe"}'));

    const repair = awaited(await client.complete(request));
    run.answer(repair, completion('{"rationale": "fixed", "rating": "no"}', { prompt_tokens: 60, completion_tokens: 8 }));
    const done = await client.complete(request);

    expect(repair?.body.messages).toHaveLength(4);
    expect(done).toMatchObject({ ok: true, output: { rating: 'no' }, usage: { inputTokens: 0, outputTokens: 0 }, retries: 1 });
  });

  it.each([
    {
      name: 'a refused response_format',
      error: {
        status: 400,
        message: "Invalid parameter: 'response_format' of type 'json_schema' is not supported with this model.",
        param: 'response_format',
        code: null,
      },
      next: { response_format: { type: 'json_object' } },
      dropped: undefined,
    },
    {
      name: 'a refused temperature',
      error: {
        status: 400,
        message: "Unsupported value: 'temperature' does not support 0 with this model. Only the default (1) value is supported.",
        param: 'temperature',
        code: 'unsupported_value',
      },
      next: { max_tokens: 1024 },
      dropped: 'temperature',
    },
  ])('sends the next request as online after $name', async ({ error, next, dropped }) => {
    const run = answers();
    const client = completer(run);
    run.answer(awaited(await client.complete(request)), {
      kind: 'response',
      status: error.status,
      body: { error: { message: error.message, type: 'invalid_request_error', param: error.param, code: error.code } },
    });

    const following = awaited(await client.complete(request));

    expect(following?.body).toMatchObject(next);
    if (dropped !== undefined) expect(following?.body).not.toHaveProperty(dropped);
  });

  it('sends a line the job did not run once more, as a request of its own, and then gives up with the reason', async () => {
    const run = answers();
    const client = completer(run);
    const first = awaited(await client.complete(request));
    run.answer(first, {
      kind: 'line-failed',
      code: 'batch_expired',
      message: 'This request could not be executed before the completion window expired.',
    });

    const again = awaited(await client.complete(request));
    run.answer(again, { kind: 'response', status: 500, body: { error: { message: 'The server had an error', type: 'server_error' } } });
    const outcome = await client.complete(request);

    expect(again).toMatchObject({ attempt: 1, body: first?.body });
    expect(again?.id).not.toBe(first?.id);
    expect(outcome).toMatchObject({
      ok: false,
      transient: false,
      error: 'the batch jobs did not run the request, twice (the last: HTTP 500)',
    });
  });

  it('judges a line the job did not run online, under failed_lines: online', async () => {
    const run = answers();
    const online: JudgeCompleter = {
      complete: async () => ({
        ok: true,
        output: { rationale: 'online', rating: 'yes' },
        reportedModel: undefined,
        usage: { inputTokens: 5, outputTokens: 5 },
        retries: 0,
        rateLimited: 0,
      }),
    };
    const client = completer(run, online);
    run.answer(awaited(await client.complete(request)), { kind: 'line-failed', code: 'batch_expired', message: 'expired' });

    const outcome = await client.complete(request);

    expect(outcome).toMatchObject({ ok: true, output: { rationale: 'online' } });
    expect(outcome).not.toHaveProperty('pricing');
  });

  it('reads a refusal as final, with no repair request', async () => {
    const run = answers();
    const client = completer(run);
    run.answer(awaited(await client.complete(request)), {
      kind: 'response',
      status: 200,
      body: {
        choices: [{ finish_reason: 'stop', message: { role: 'assistant', content: null, refusal: 'I cannot help with that.' } }],
        usage: { prompt_tokens: 3, completion_tokens: 2 },
      },
    });

    const outcome = await client.complete(request);

    expect(outcome).toMatchObject({ ok: false, transient: false, error: 'the judge model refused to answer: I cannot help with that.' });
  });

  it('reads an answer whose message content is not text as no chat completion, naming the field', async () => {
    const run = answers();
    const client = completer(run);
    run.answer(awaited(await client.complete(request)), {
      kind: 'response',
      status: 200,
      body: {
        choices: [{ finish_reason: 'stop', message: { role: 'assistant', content: { rating: 'yes' } } }],
        usage: { prompt_tokens: 3, completion_tokens: 2 },
      },
    });

    const outcome = await client.complete(request);

    expect(outcome.ok).toBe(false);
    expect(outcome.ok ? '' : outcome.error).toMatch(/not a chat completion/);
  });

  it('names two samples of one prompt as two requests with one body', async () => {
    const client = completer(answers());

    const [zero, one] = await Promise.all([
      client.complete(request),
      client.complete({ ...request, batch: { runId: 'r-0000000000000001', judge: 'chunk_relevance', sample: 1 } }),
    ]);

    expect(awaited(zero)?.body).toEqual(awaited(one)?.body);
    expect(awaited(zero)?.id).not.toBe(awaited(one)?.id);
  });
});
