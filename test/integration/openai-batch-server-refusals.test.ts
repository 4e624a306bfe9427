import OpenAI, { AzureOpenAI } from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { failureOf, judgeBody, lengthOracle, lineOf, resultLines, submit } from '../support/openai-batch/batch-client.js';
import { startOpenAiBatchServer, type BatchServerOptions, type OpenAiBatchServer } from '../support/openai-batch-server.js';

// The batch test server's failures, driven through the real `openai` client:
// validation, expiry, cancellation, the enqueued-token limit, refused creates,
// keys, Azure's two kinds of paths, and the 404 an online judge call gets.

const API_KEY = 'sk-test-batch';
const AZURE_KEY = 'azure-test-key';
const running: OpenAiBatchServer[] = [];

afterEach(async () => {
  await Promise.all(running.splice(0).map((server) => server.close()));
});

async function start(options: Partial<BatchServerOptions> = {}): Promise<{ server: OpenAiBatchServer; client: OpenAI }> {
  const server = await startOpenAiBatchServer({ oracle: lengthOracle, apiKey: API_KEY, azureKey: AZURE_KEY, ...options });
  running.push(server);
  return { server, client: new OpenAI({ baseURL: server.baseUrl, apiKey: API_KEY, maxRetries: 0 }) };
}

describe('validation', () => {
  it('fails a batch with bad lines, naming each by its 1-based line number, and runs none of them', async () => {
    // Prepare
    const { server, client } = await start();
    const lines = [
      lineOf('a'),
      '{"custom_id": "b", not json',
      lineOf('a'),
      lineOf('c', judgeBody('c'), '/v1/embeddings'),
      '',
      lineOf('d', judgeBody('d', 'other-model')),
      lineOf('e'),
    ];
    // Act
    const created = await submit(client, lines);
    const failed = await client.batches.retrieve(created.id);
    // Assess
    expect(failed).toMatchObject({
      status: 'failed',
      output_file_id: null,
      error_file_id: null,
      request_counts: { total: 0, completed: 0, failed: 0 },
    });
    expect(failed.failed_at).toBeGreaterThan(0);
    expect(failed.errors?.object).toBe('list');
    // Line 5 is blank: skipped, yet counted in the numbering.
    expect(failed.errors?.data?.map((error) => [error.line, error.code, error.param])).toEqual([
      [2, 'invalid_json_line', null],
      [3, 'duplicate_custom_id', 'custom_id'],
      [4, 'url_mismatch', 'url'],
      [6, 'model_mismatch', 'body.model'],
    ]);
    expect(server.judged.size).toBe(0);
  });

  it('fails a batch over the request limit with too_many_tasks, and a forced validation failure with its errors', async () => {
    const { server, client } = await start({ limits: { maxRequests: 2 } });
    const tooMany = await client.batches.retrieve((await submit(client, [lineOf('a'), lineOf('b'), lineOf('c')])).id);
    server.setFaults({ validationErrors: [{ code: 'invalid_request', message: 'forced', line: 1 }] });
    const forced = await client.batches.retrieve((await submit(client, [lineOf('a')])).id);
    expect(tooMany.errors?.data).toEqual([expect.objectContaining({ code: 'too_many_tasks', line: null })]);
    expect(forced.errors?.data).toEqual([{ code: 'invalid_request', message: 'forced', param: null, line: 1 }]);
  });

  it('fails a batch past the enqueued token limit of its model with token_limit_exceeded, as OpenAI does', async () => {
    // Each line's prompt is about 7 tokens: two batches of 2 lines pass a limit of 20 together only one at a time.
    const { server, client } = await start({ faults: { enqueuedTokenLimit: 20 } });
    const first = await client.batches.retrieve((await submit(client, [lineOf('a'), lineOf('b')])).id);
    const second = await client.batches.retrieve((await submit(client, [lineOf('c'), lineOf('d')])).id);
    server.settle(first.id);
    const third = await client.batches.retrieve((await submit(client, [lineOf('e'), lineOf('f')])).id);
    expect([first.status, second.status, third.status]).toEqual(['in_progress', 'failed', 'in_progress']);
    expect(second.errors?.data?.[0]).toMatchObject({
      code: 'token_limit_exceeded',
      line: null,
      message: expect.stringContaining('Enqueued token limit reached for judge-model'),
    });
  });
});

describe('a batch that does not finish', () => {
  it('expires after the given lines: those in the output, the rest batch_expired in the error file', async () => {
    const { server, client } = await start({ faults: { expireAfterLines: 2 } });
    const created = await submit(
      client,
      ['a', 'b', 'c', 'd', 'e'].map((id) => lineOf(id)),
    );
    const expired = await client.batches.retrieve(server.settle(created.id)?.id ?? '');
    const output = await resultLines(client, expired.output_file_id);
    const errors = await resultLines(client, expired.error_file_id);
    expect(expired).toMatchObject({ status: 'expired', request_counts: { total: 5, completed: 2, failed: 0 } });
    expect(expired.expired_at).toBeGreaterThan(0);
    expect(output.map((line) => line.custom_id).sort()).toEqual(['a', 'b']);
    expect(errors.map((line) => line.custom_id).sort()).toEqual(['c', 'd', 'e']);
    expect(errors[0]).toMatchObject({
      response: null,
      error: { code: 'batch_expired', message: 'This request could not be executed before the completion window expired.' },
    });
  });

  it('cancels a running batch: cancelling, then cancelled with the lines not run as batch_cancelled; a finished batch refuses with 409', async () => {
    const { server, client } = await start({ progress: 'manual', linesPerStep: 1 });
    const created = await submit(
      client,
      ['a', 'b', 'c'].map((id) => lineOf(id)),
    );
    server.advance();
    server.advance();
    const cancelling = await client.batches.cancel(created.id);
    server.advance();
    const cancelled = await client.batches.retrieve(created.id);
    expect(cancelling.status).toBe('cancelling');
    expect(cancelled).toMatchObject({ status: 'cancelled', request_counts: { total: 3, completed: 1, failed: 0 } });
    expect((await resultLines(client, cancelled.output_file_id)).map((line) => line.custom_id)).toEqual(['a']);
    expect((await resultLines(client, cancelled.error_file_id)).map((line) => line.error?.code)).toEqual([
      'batch_cancelled',
      'batch_cancelled',
    ]);
    expect((await failureOf(client.batches.cancel(created.id))).status).toBe(409);
  });

  it('refuses a create with the HTTP error asked, as many times as asked, and counts only the batches created', async () => {
    const { server, client } = await start({
      faults: { refuseCreate: { status: 429, code: 'token_limit_exceeded', message: 'Enqueued token limit reached.', times: 1 } },
    });
    const refused = await failureOf(submit(client, [lineOf('a')]));
    await submit(client, [lineOf('a')]);
    expect([refused.status, refused.code]).toEqual([429, 'token_limit_exceeded']);
    expect(server.batches.size).toBe(1);
    expect(server.log.filter((entry) => entry.path === '/v1/batches').map((entry) => entry.status)).toEqual([429, 200]);
  });
});

describe('paths and keys', () => {
  it('answers 404 to a chat completion, and logs it, so a test can assert no online judge call was made', async () => {
    const { server, client } = await start();
    const error = await failureOf(client.chat.completions.create(judgeBody('online?')));
    expect(error.status).toBe(404);
    expect(server.log).toEqual([expect.objectContaining({ method: 'POST', path: '/v1/chat/completions', status: 404 })]);
  });

  it('refuses a wrong key with 401: a Bearer key on /v1, an api-key on Azure', async () => {
    const { server } = await start();
    const wrongOpenAi = new OpenAI({ baseURL: server.baseUrl, apiKey: 'sk-wrong', maxRetries: 0 });
    const wrongAzure = new AzureOpenAI({ endpoint: server.origin, apiKey: 'wrong', apiVersion: '2025-03-01-preview', maxRetries: 0 });
    const wrongV1 = new OpenAI({
      baseURL: `${server.origin}/openai/v1`,
      apiKey: 'wrong',
      defaultHeaders: { 'api-key': 'wrong', Authorization: null },
      maxRetries: 0,
    });
    const statuses = await Promise.all(
      [wrongOpenAi, wrongAzure, wrongV1].map(async (client) => (await failureOf(client.batches.list())).status),
    );
    expect(statuses).toEqual([401, 401, 401]);
    expect(server.log.map((entry) => entry.path).sort()).toEqual(['/openai/batches', '/openai/v1/batches', '/v1/batches']);
  });

  it('serves the dated api-version paths to AzureOpenAI made without a deployment, and records each line deployment', async () => {
    const { server } = await start();
    const client = new AzureOpenAI({ endpoint: server.origin, apiKey: AZURE_KEY, apiVersion: '2025-03-01-preview', maxRetries: 0 });
    // Azure's own examples name the line url /chat/completions.
    const lines = ['a', 'b'].map((id) => lineOf(id, judgeBody(id, 'gpt-4o-global-batch'), '/chat/completions'));
    const created = await submit(client, lines);
    const done = await client.batches.retrieve(server.settle(created.id)?.id ?? '');
    expect(done).toMatchObject({
      status: 'completed',
      model: 'gpt-4o-global-batch',
      request_counts: { total: 2, completed: 2, failed: 0 },
    });
    expect((await resultLines(client, done.output_file_id)).map((line) => line.response?.body.model).sort()).toEqual([
      'gpt-4o-global-batch',
      'gpt-4o-global-batch',
    ]);
    expect(Object.fromEntries(server.models)).toEqual({ a: 'gpt-4o-global-batch', b: 'gpt-4o-global-batch' });
    expect(
      server.log.every((entry) => /^\/openai\/(files|batches)/.test(entry.path) && entry.url.includes('api-version=2025-03-01-preview')),
    ).toBe(true);
    expect(server.log.every((entry) => entry.headers['api-key'] === AZURE_KEY)).toBe(true);
  });

  it('serves the v1 paths to a plain OpenAI client at /openai/v1 with an api-key header, and 404s a dated path without its api-version', async () => {
    const { server } = await start();
    const client = new OpenAI({
      baseURL: `${server.origin}/openai/v1`,
      apiKey: AZURE_KEY,
      defaultHeaders: { 'api-key': AZURE_KEY, Authorization: null },
      maxRetries: 0,
    });
    const created = await submit(client, [lineOf('a', judgeBody('a', 'gpt-4o-global-batch'))]);
    const done = await client.batches.retrieve(server.settle(created.id)?.id ?? '');
    const withoutVersion = await fetch(`${server.origin}/openai/batches`, { headers: { 'api-key': AZURE_KEY } });
    expect(done.status).toBe('completed');
    expect(server.log[0]).toMatchObject({ method: 'POST', path: '/openai/v1/files', status: 200 });
    expect(server.log[0]?.headers.authorization).toBeUndefined();
    expect(withoutVersion.status).toBe(404);
  });
});
