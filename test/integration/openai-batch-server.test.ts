import OpenAI, { toFile } from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { failureOf, judgeBody, lengthOracle, lineOf, resultLines, submit } from '../support/openai-batch/batch-client.js';
import { startOpenAiBatchServer, type BatchServerOptions, type OpenAiBatchServer } from '../support/openai-batch-server.js';
import { startOpenAiTestServer } from '../support/openai-test-server.js';

// These tests drive the batch test server through the real `openai` client, as
// a batch judge will: upload, create, poll, read the files back by custom_id.
// Its refusals, faults and Azure paths are in openai-batch-server-refusals.test.ts.

const API_KEY = 'sk-test-batch';
const running: { close(): Promise<void> }[] = [];

afterEach(async () => {
  await Promise.all(running.splice(0).map((server) => server.close()));
});

async function start(options: Partial<BatchServerOptions> = {}): Promise<{ server: OpenAiBatchServer; client: OpenAI }> {
  const server = await startOpenAiBatchServer({ oracle: lengthOracle, apiKey: API_KEY, ...options });
  running.push(server);
  return { server, client: new OpenAI({ baseURL: server.baseUrl, apiKey: API_KEY, maxRetries: 0 }) };
}

/** A completion without its ids (numbered by each server's own count): what must agree between batch and online. */
function shapeOf(completion: OpenAI.ChatCompletion | undefined): unknown {
  return {
    model: completion?.model,
    usage: completion?.usage,
    choices: completion?.choices.map(({ message: { tool_calls: calls, ...message }, ...choice }) => ({
      ...choice,
      message,
      calls: calls?.map((call) => (call.type === 'function' ? call.function : call)),
    })),
  };
}

describe('files', () => {
  it('stores an upload of purpose batch, gives its bytes back, and deletes it', async () => {
    // Prepare
    const { client } = await start();
    const bytes = Buffer.from(`${lineOf('a')}\n`);
    // Act
    const file = await client.files.create({ file: await toFile(bytes, 'requests.jsonl'), purpose: 'batch' });
    const content = await (await client.files.content(file.id)).text();
    const deleted = await client.files.delete(file.id);
    // Assess
    expect(file).toMatchObject({ object: 'file', bytes: bytes.length, filename: 'requests.jsonl', purpose: 'batch', status: 'processed' });
    expect(content).toBe(bytes.toString());
    expect(deleted).toEqual({ id: file.id, object: 'file', deleted: true });
    expect((await failureOf(client.files.retrieve(file.id))).status).toBe(404);
  });

  it('refuses an upload of another purpose with a 400 naming purpose', async () => {
    const { client } = await start();
    const error = await failureOf(client.files.create({ file: await toFile(Buffer.from('{}'), 'data.jsonl'), purpose: 'fine-tune' }));
    expect(error.status).toBe(400);
    expect(error.param).toBe('purpose');
  });
});

describe('a batch that runs', () => {
  it('goes through validating, in_progress and finalizing to completed, one step a poll, its counts growing', async () => {
    // Prepare
    const { server, client } = await start();
    // Act
    const created = await submit(
      client,
      ['a', 'b', 'c', 'd'].map((id) => lineOf(id)),
    );
    const polls = [];
    for (let poll = 0; poll < 4; poll++) polls.push(await client.batches.retrieve(created.id));
    // Assess
    expect(created).toMatchObject({
      object: 'batch',
      status: 'validating',
      endpoint: '/v1/chat/completions',
      completion_window: '24h',
      metadata: { run: 'r1' },
      output_file_id: null,
      error_file_id: null,
      errors: null,
    });
    expect(created.request_counts).toEqual({ total: 0, completed: 0, failed: 0 });
    // Half the lines a step by default: 0, 2, then all 4.
    expect(polls.map((batch) => [batch.status, batch.request_counts?.completed])).toEqual([
      ['in_progress', 0],
      ['in_progress', 2],
      ['finalizing', 4],
      ['completed', 4],
    ]);
    const done = polls[3];
    if (done === undefined) throw new Error('Expected a fourth poll of the batch');
    expect(done).toMatchObject({ model: 'judge-model', request_counts: { total: 4, completed: 4, failed: 0 }, error_file_id: null });
    expect(done.completed_at).toBeGreaterThanOrEqual(done.created_at);
    const outputFileId = done.output_file_id;
    if (!outputFileId) throw new Error('Expected the completed batch to name its output file');
    const lines = await resultLines(client, outputFileId);
    expect(lines.map((line) => line.response?.status_code)).toEqual([200, 200, 200, 200]);
    expect([...server.judged.values()]).toEqual([1, 1, 1, 1]);
    expect(server.files.get(outputFileId)?.info.purpose).toBe('batch_output');
  });

  it('writes the output in an order that is not the input order, each line found by its custom_id', async () => {
    const { server, client } = await start();
    const ids = ['q1', 'q2', 'q3', 'q4', 'q5'];
    const created = await submit(
      client,
      ids.map((id) => lineOf(id, judgeBody('x'.repeat(Number(id.slice(1)))))),
    );
    const done = server.settle(created.id);
    const lines = await resultLines(client, done?.output_file_id as string);
    expect(lines.map((line) => line.custom_id)).not.toEqual(ids);
    expect(lines.map((line) => line.custom_id).sort()).toEqual(ids);
    // q3 asked about 'xxx': the oracle rates it 3.
    expect(lines.find((line) => line.custom_id === 'q3')?.response?.body.choices?.[0]?.message.content).toBe('{"rating":3}');
    expect(new Set(lines.map((line) => line.id)).size).toBe(5);
  });

  it('answers each line with the body the online test server gives the same request, in json_schema and tool mode', async () => {
    // Prepare
    const { server, client } = await start();
    const online = await startOpenAiTestServer({ oracle: lengthOracle });
    running.push(online);
    const schema = {
      ...judgeBody('graded?'),
      response_format: { type: 'json_schema' as const, json_schema: { name: 'graded_relevance', schema: { type: 'object' } } },
    };
    const tool = {
      ...judgeBody('tool?'),
      tools: [{ type: 'function' as const, function: { name: 'verdict', parameters: { type: 'object' } } }],
      tool_choice: { type: 'function' as const, function: { name: 'verdict' } },
    };
    const onlineClient = new OpenAI({ baseURL: online.baseUrl, apiKey: 'k', maxRetries: 0 });
    // Act
    const created = await submit(client, [lineOf('schema', schema), lineOf('tool', tool)]);
    const lines = await resultLines(client, server.settle(created.id)?.output_file_id as string);
    const expected = [await onlineClient.chat.completions.create(schema), await onlineClient.chat.completions.create(tool)];
    // Assess
    expect(shapeOf(lines.find((line) => line.custom_id === 'schema')?.response?.body)).toEqual(shapeOf(expected[0]));
    expect(shapeOf(lines.find((line) => line.custom_id === 'tool')?.response?.body)).toEqual(shapeOf(expected[1]));
    expect(expected[1]?.choices[0]?.message.tool_calls).toHaveLength(1);
    expect(online.log).toHaveLength(2);
  });

  it('answers a line it refuses as the online server would, and a faulted line 500, in the error file', async () => {
    const { server, client } = await start({ faults: { refuseResponseFormat: ['json_object'], serverErrorLines: ['broken'] } });
    const refused = { ...judgeBody('json?'), response_format: { type: 'json_object' as const } };
    const created = await submit(client, [lineOf('fine'), lineOf('refused', refused), lineOf('broken')]);
    const done = server.settle(created.id);
    const errors = await resultLines(client, done?.error_file_id);
    expect(done?.request_counts).toEqual({ total: 3, completed: 1, failed: 2 });
    expect(errors.map((line) => [line.custom_id, line.response?.status_code, line.response?.body.error?.param])).toEqual([
      ['broken', 500, null],
      ['refused', 400, 'response_format'],
    ]);
    expect(Object.fromEntries(server.judged)).toEqual({ fine: 1 });
  });

  it('lists batches newest first, a page at a time', async () => {
    const { client } = await start();
    const created = [await submit(client, [lineOf('a')]), await submit(client, [lineOf('a')]), await submit(client, [lineOf('a')])];
    const first = await client.batches.list({ limit: 2 });
    const all = [];
    for await (const batch of client.batches.list({ limit: 2 })) all.push(batch.id);
    expect(first.data.map((batch) => batch.id)).toEqual([created[2]?.id, created[1]?.id]);
    expect(first.has_more).toBe(true);
    expect(all).toEqual(created.map((batch) => batch.id).reverse());
  });

  it('moves only on advance() under manual progress, and on a timer with stepEveryMs', async () => {
    const { server, client } = await start({ progress: 'manual', linesPerStep: 1 });
    const created = await submit(client, [lineOf('a'), lineOf('b')]);
    expect((await client.batches.retrieve(created.id)).status).toBe('validating');
    server.advance();
    server.advance();
    expect((await client.batches.retrieve(created.id)).request_counts).toEqual({ total: 2, completed: 1, failed: 0 });
    const timed = await start({ progress: 'manual', stepEveryMs: 5 });
    const ticking = await submit(timed.client, [lineOf('a')]);
    await expect.poll(async () => (await timed.client.batches.retrieve(ticking.id)).status, { timeout: 2_000 }).toBe('completed');
  });
});
