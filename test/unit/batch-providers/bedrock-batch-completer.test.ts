import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { BatchAnswer, BatchRequest } from '../../../shared/schema/batch-request.js';
import { BedrockBatchCompleter } from '../../../shared/batch-providers/bedrock-batch-completer.js';
import { answerOfLine } from '../../../shared/batch-providers/bedrock-batch-files.js';
import { converseInput } from '../../../shared/judge-client/bedrock-converse.js';
import type { CompletionRequest, JudgeCompleter, JudgeCompletion } from '../../../shared/judge-answers/judge-completion.js';

/**
 * A Bedrock batch judgment replayed from the answers of the run's model
 * invocation jobs: each request is the Converse request the online Bedrock
 * client sends, each record's output or error line read as the online client
 * reads the same answer. The answers here are written as a job's output
 * lines would have been stored (bedrock-batch-files.ts).
 */
const MODEL = 'anthropic.claude-3-5-haiku-20241022-v1:0';
const verdictSchema = z.object({ rationale: z.string(), rating: z.enum(['yes', 'no']) });
const request: CompletionRequest = {
  messages: [
    { role: 'system', content: 'Judge the passage.' },
    { role: 'user', content: 'Request: a\nPassage: b' },
  ],
  schema: verdictSchema,
  schemaName: 'chunk_relevance',
  batch: { runId: 'r-0000000000000002', judge: 'chunk_relevance', sample: 0 },
};

function answers() {
  const byId = new Map<string, BatchAnswer>();
  return {
    answerOf: async (_runId: string, id: string) => byId.get(id),
    /** Stores what a job's output line for the awaited request says. */
    line: (
      awaited: BatchRequest | undefined,
      line: { modelOutput?: Record<string, unknown>; error?: { errorCode: number | string; errorMessage: string } },
    ) => {
      if (awaited === undefined) throw new Error('no request was awaited');
      byId.set(awaited.id, { id: awaited.id, job: 'job-1', answer: answerOfLine({ recordId: awaited.id, ...line }) });
    },
    notRun: (awaited: BatchRequest | undefined) => {
      if (awaited === undefined) throw new Error('no request was awaited');
      byId.set(awaited.id, {
        id: awaited.id,
        job: 'job-1',
        answer: { kind: 'line-failed', code: 'not_returned', message: 'the job stopped first' },
      });
    },
  };
}

const toolAnswer = (input: object, usage = { inputTokens: 40, outputTokens: 9 }) => ({
  modelOutput: {
    output: { message: { role: 'assistant', content: [{ toolUse: { toolUseId: 't1', name: 'chunk_relevance', input } }] } },
    stopReason: 'tool_use',
    usage,
  },
});

function completer(
  run: ReturnType<typeof answers>,
  online?: { failedLines?: JudgeCompleter; belowMinimum?: JudgeCompleter },
): BedrockBatchCompleter {
  return new BedrockBatchCompleter({
    modelId: MODEL,
    model: MODEL,
    temperature: 0,
    maxTokens: 1024,
    answerOf: run.answerOf,
    ...(online?.failedLines === undefined ? {} : { online: online.failedLines }),
    ...(online?.belowMinimum === undefined ? {} : { belowMinimum: online.belowMinimum }),
  });
}

const awaited = (outcome: JudgeCompletion): BatchRequest | undefined => (outcome.ok ? undefined : outcome.awaitingBatch);
const onlineJudge: JudgeCompleter = {
  complete: async () => ({
    ok: true,
    output: { rationale: 'online', rating: 'yes' },
    reportedModel: undefined,
    usage: { inputTokens: 5, outputTokens: 5 },
    retries: 0,
    rateLimited: 0,
  }),
};

describe('a Bedrock judgment replayed from batch answers', () => {
  it('waits for the Converse request the online client sends, then reads the tool answer as online, at the batch price', async () => {
    // Prepare
    const run = answers();
    const client = completer(run);

    // Act
    const first = await client.complete(request);
    run.line(awaited(first), toolAnswer({ rationale: 'on topic', rating: 'yes' }));
    const second = await client.complete(request);

    // Assess: the online client's very input, forced tool and inference settings included
    expect(awaited(first)).toMatchObject({ judge: 'chunk_relevance', model: MODEL, sample: 0, attempt: 0 });
    expect(awaited(first)?.body).toEqual({
      ...converseInput('tool', request.messages, verdictSchema, 'chunk_relevance', { modelId: MODEL, maxTokens: 1024, temperature: 0 }),
    });
    expect(second).toMatchObject({
      ok: true,
      output: { rationale: 'on topic', rating: 'yes' },
      // The record's tokens were counted when its job was collected (job-collection.ts), not again by the judgment that reads it.
      usage: { inputTokens: 0, outputTokens: 0 },
      retries: 0,
      pricing: 'batch',
    });
  });

  it("names no model of its own, but the model a prompt router chose when the record's trace names one", async () => {
    // Prepare: Converse names no model; a prompt router's trace does
    const run = answers();
    const client = completer(run);
    const plain = await client.complete(request);
    run.line(awaited(plain), toolAnswer({ rationale: 'on topic', rating: 'yes' }));
    const routedRequest = { ...request, messages: [...request.messages, { role: 'user' as const, content: 'again' }] };
    const routed = await client.complete(routedRequest);
    const answer = toolAnswer({ rationale: 'on topic', rating: 'yes' });
    run.line(awaited(routed), { modelOutput: { ...answer.modelOutput, trace: { promptRouter: { invokedModelId: 'routed-model' } } } });

    // Act
    const [first, second] = [await client.complete(request), await client.complete(routedRequest)];

    // Assess
    expect(first).toMatchObject({ ok: true, reportedModel: undefined });
    expect(second).toMatchObject({ ok: true, reportedModel: 'routed-model' });
  });

  it('steps down to JSON in text after a ValidationException line refusing the forced tool, as the online client does', async () => {
    const run = answers();
    const client = completer(run);
    run.line(awaited(await client.complete(request)), {
      error: {
        errorCode: 400,
        errorMessage: "This model doesn't support the toolConfig.toolChoice.tool field. Remove toolConfig.toolChoice.tool and try again.",
      },
    });

    const text = awaited(await client.complete(request));
    run.line(text, {
      modelOutput: {
        output: { message: { role: 'assistant', content: [{ text: '{"rationale": "ok", "rating": "no"}' }] } },
        stopReason: 'end_turn',
        usage: { inputTokens: 50, outputTokens: 7 },
      },
    });
    const done = await client.complete(request);

    expect(text?.body).not.toHaveProperty('toolConfig');
    expect(JSON.stringify(text?.body.system)).toContain('JSON');
    expect(done).toMatchObject({ ok: true, output: { rating: 'no' }, usage: { inputTokens: 0, outputTokens: 0 }, retries: 1 });
  });

  it('sends the next request without temperature after a line refusing it', async () => {
    const run = answers();
    const client = completer(run);
    run.line(awaited(await client.complete(request)), {
      error: {
        errorCode: 'ValidationException',
        errorMessage: 'The model returned the following errors: temperature is not supported for this model',
      },
    });

    const next = awaited(await client.complete(request));

    expect(next?.body).toMatchObject({ inferenceConfig: { maxTokens: 1024 }, toolConfig: expect.any(Object) });
    expect(next?.body.inferenceConfig).not.toHaveProperty('temperature');
  });

  it('sends a throttled or unreturned line once more as a request of its own, then gives up with the reason', async () => {
    const run = answers();
    const client = completer(run);
    const first = awaited(await client.complete(request));
    run.line(first, { error: { errorCode: 429, errorMessage: 'Too many requests, please wait before trying again.' } });

    const again = awaited(await client.complete(request));
    run.notRun(again);
    const outcome = await client.complete(request);

    expect(again).toMatchObject({ attempt: 1, body: first?.body });
    expect(again?.id).not.toBe(first?.id);
    expect(outcome).toMatchObject({
      ok: false,
      transient: false,
      error: 'the batch jobs did not run the request, twice (the last: not_returned: the job stopped first)',
    });
  });

  it("reads a guardrail's intervention as final, with no repair request", async () => {
    const run = answers();
    const client = completer(run);
    run.line(awaited(await client.complete(request)), {
      modelOutput: {
        output: { message: { role: 'assistant', content: [{ text: 'Sorry, the model cannot answer this.' }] } },
        stopReason: 'guardrail_intervened',
        usage: { inputTokens: 3, outputTokens: 2 },
      },
    });

    const outcome = await client.complete(request);

    expect(outcome).toMatchObject({ ok: false, transient: false, error: expect.stringContaining('stopReason guardrail_intervened') });
  });

  it('judges online a judgment whose round is below the minimum a job, and only then', async () => {
    const run = answers();
    const client = completer(run, { belowMinimum: onlineJudge });

    const waiting = await client.complete(request);
    const online = await client.complete({
      ...request,
      batch: { runId: 'r-0000000000000002', judge: 'chunk_relevance', sample: 0, online: true },
    });

    expect(awaited(waiting)).toBeDefined();
    expect(online).toMatchObject({ ok: true, output: { rationale: 'online' } });
    expect(online).not.toHaveProperty('pricing');
  });

  it('names one prompt asked of two models as two requests, while the record leaves the model to the job', async () => {
    const run = answers();
    const other = new BedrockBatchCompleter({
      modelId: 'us.anthropic.claude-3-5-sonnet-20241022-v2:0',
      model: 'us.anthropic.claude-3-5-sonnet-20241022-v2:0',
      temperature: 0,
      maxTokens: 1024,
      answerOf: run.answerOf,
    });

    const [haiku, sonnet] = await Promise.all([completer(run).complete(request), other.complete(request)]);

    expect(awaited(haiku)?.id).not.toBe(awaited(sonnet)?.id);
  });
});
