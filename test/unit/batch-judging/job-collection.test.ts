import { describe, expect, it } from 'vitest';
import { collectJob, UNMATCHED_LINES, jobRequestsText } from '../../../shared/batch-judging/job-collection.js';
import type { JobRecord } from '../../../shared/batch-judging/batch-state.js';
import type { BatchProvider } from '../../../shared/batch-providers/batch-provider.js';
import { batchAnswerSchema, batchKeys, batchRequestId } from '../../../shared/schema/batch-request.js';
import { readChatResultLine } from '../../../shared/batch-providers/chat-result-line.js';
import { resultLines } from '../../../shared/batch-providers/result-lines.js';
import { MemoryStore } from '../../../shared/ports/memory-store.js';
import { attemptUsageSchema } from '../../../shared/schema/run-records.js';
import { rememberSecret } from '../../../shared/secrets/scrub-secrets.js';

/**
 * A finished job's files read as a provider writes them when it misbehaves:
 * a line that is not JSON, a last line cut off, a line of no request of the
 * job, a request answered twice, an error body under status 200, a key
 * echoed back. No answer is lost for another line's fault; every request
 * without an answer to trust is a line not run, sent again; every line the
 * provider billed is counted once, per judge and model.
 */
const RUN = 'r-00000000000000c1';
const KEY = 'sk-collect-QwErTyUiOpAsDfGhJk';
rememberSecret(KEY);

const ids = ['a', 'b', 'c', 'd', 'e', 'f'].map((name) => batchRequestId({ name }, 0, 0));
const [first, second, third, fourth, fifth, sixth] = ids as [string, string, string, string, string, string];

function answerLine(customId: string, rating: string, tokens = { prompt_tokens: 10, completion_tokens: 2 }): string {
  const body = {
    id: 'chatcmpl-1',
    model: 'judge-model',
    system_fingerprint: 'fp_1',
    choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: `{"rating": "${rating}"}` }, logprobs: null }],
    usage: { ...tokens, total_tokens: tokens.prompt_tokens + tokens.completion_tokens },
    service_tier: 'default',
  };
  return JSON.stringify({
    id: `batch_req_${customId}`,
    custom_id: customId,
    response: { status_code: 200, request_id: 'req', body },
    error: null,
  });
}

/** A provider whose finished job's files hold `texts`, read as the OpenAI adapter reads them. */
function providerWith(...texts: string[]): BatchProvider {
  return {
    name: 'the test provider',
    limits: { minRequests: 1, maxRequests: 100, maxBytes: 1_000_000 },
    line: (request) => JSON.stringify({ custom_id: request.id }),
    find: async () => undefined,
    create: async () => ({ id: 'batch_1' }),
    status: async () => ({ state: 'completed', phase: 'finished', counts: undefined, errors: [] }),
    answers: async function* () {
      for (const text of texts) yield* resultLines(text, readChatResultLine);
    },
    cancel: async () => {},
  };
}

const job: JobRecord = {
  key: `${RUN}-r0-j0`,
  round: 0,
  provider_id: 'batch_1',
  requests: ids.length,
  model: 'judge-model',
  state: 'completed',
  phase: 'finished',
  collected: false,
};

async function storeOwing(): Promise<MemoryStore> {
  const store = new MemoryStore();
  const requests = ids.map((id, index) => ({ id, judge: index < 3 ? 'chunk_relevance' : 'correctness', model: 'judge-model' }));
  await store.put(batchKeys.jobRequests(RUN, job.key), jobRequestsText(requests));
  return store;
}

async function storedAnswer(store: MemoryStore, requestId: string) {
  const bytes = await store.get(batchKeys.answer(RUN, requestId));
  return bytes === undefined ? undefined : batchAnswerSchema.parse(JSON.parse(new TextDecoder().decode(bytes))).answer;
}

describe('collecting a finished job whose files are broken', () => {
  it('keeps every readable answer, reads every broken line as not run, and counts each by why', async () => {
    // Prepare: b not JSON, c answered twice, d an error under 200, an unknown id, f's line cut off at the end
    const store = await storeOwing();
    const output = [
      answerLine(first, 'yes'),
      `this is not json ${second}`,
      answerLine(third, 'yes'),
      answerLine(third, 'no'),
      JSON.stringify({
        custom_id: fourth,
        response: { status_code: 200, body: { error: { message: 'overloaded', type: 'server_error', code: null } } },
      }),
      answerLine(batchRequestId({ name: 'stranger' }, 0, 0), 'yes'),
      answerLine(fifth, 'no'),
      answerLine(sixth, 'yes').slice(0, 150),
    ].join('\n');

    // Act
    const collected = await collectJob(store, providerWith(output), RUN, job);

    // Assess
    expect(collected.collected).toBe(true);
    expect(collected.unread_lines).toEqual({
      'an error body under status 200': 1,
      'cut off': 1,
      'duplicate id': 1,
      'not JSON': 1,
      'unknown id': 1,
    });
    expect(await storedAnswer(store, first)).toMatchObject({ kind: 'response', status: 200 });
    expect(await storedAnswer(store, fifth)).toMatchObject({ kind: 'response', status: 200 });
    expect(await storedAnswer(store, second)).toMatchObject({ kind: 'line-failed', code: 'not_returned' });
    expect(await storedAnswer(store, third)).toMatchObject({ kind: 'line-failed', code: 'duplicate' });
    expect(await storedAnswer(store, fourth)).toMatchObject({ kind: 'line-failed', code: 'unreadable' });
    expect(await storedAnswer(store, sixth)).toMatchObject({ kind: 'line-failed', code: 'unreadable' });
  });

  it('keeps of an answer only what the judge reads, and no key a gateway echoed', async () => {
    // Prepare: an answer, and a 401 line whose body repeats the key
    const store = await storeOwing();
    const refused = JSON.stringify({
      custom_id: second,
      response: {
        status_code: 401,
        body: { error: { message: `Incorrect API key provided: ${KEY}.`, type: 'invalid_request_error', code: 'invalid_api_key' } },
      },
    });
    const failed = JSON.stringify({ custom_id: third, response: null, error: { code: 'batch_expired', message: `expired for ${KEY}` } });

    // Act
    await collectJob(store, providerWith(`${answerLine(first, 'yes')}\n${refused}\n`, `${failed}\n`), RUN, job);

    // Assess
    const answered = await storedAnswer(store, first);
    expect(answered).toEqual({
      kind: 'response',
      status: 200,
      body: {
        model: 'judge-model',
        system_fingerprint: 'fp_1',
        choices: [{ finish_reason: 'stop', message: { content: '{"rating": "yes"}' } }],
        usage: { prompt_tokens: 10, completion_tokens: 2 },
      },
    });
    const stored: string[] = [];
    for await (const key of store.list(`runs/${RUN}/`)) stored.push(new TextDecoder().decode((await store.get(key)) ?? new Uint8Array()));
    expect(stored.join('\n')).not.toContain(KEY.slice(11, 19));
    expect(await storedAnswer(store, second)).toMatchObject({ kind: 'response', status: 401 });
    expect(await storedAnswer(store, third)).toMatchObject({ kind: 'line-failed', code: 'batch_expired' });
  });

  it('counts every line the provider billed once, per judge and model, lines of no request and duplicates included', async () => {
    // Prepare
    const store = await storeOwing();
    const output = [
      answerLine(first, 'yes', { prompt_tokens: 100, completion_tokens: 5 }),
      answerLine(fourth, 'no', { prompt_tokens: 200, completion_tokens: 7 }),
      answerLine(fourth, 'yes', { prompt_tokens: 200, completion_tokens: 7 }),
      answerLine(batchRequestId({ name: 'stranger' }, 0, 0), 'yes', { prompt_tokens: 1, completion_tokens: 1 }),
    ].join('\n');

    // Act
    await collectJob(store, providerWith(output), RUN, job);

    // Assess
    const bytes = (await store.get(batchKeys.usage(RUN, job.key))) ?? new Uint8Array();
    const usage = attemptUsageSchema.parse(JSON.parse(new TextDecoder().decode(bytes)));
    const tokens = (input: number, output: number) => ({ input_tokens: input, output_tokens: output });
    expect(usage.chunk_relevance).toMatchObject({ calls: 0, ...tokens(100, 5), batch_models: { 'judge-model': tokens(100, 5) } });
    expect(usage.correctness).toMatchObject({ calls: 0, ...tokens(400, 14), batch_models: { 'judge-model': tokens(400, 14) } });
    expect(usage[UNMATCHED_LINES]).toMatchObject(tokens(1, 1));
  });
});
