import { jsonLines } from '../support/json-lines.js';
import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { judgeBody, lengthOracle, lineOf, resultLines, submit, type ResultLine } from '../support/openai-batch/batch-client.js';
import { startOpenAiBatchServer, type BatchServerOptions, type OpenAiBatchServer } from '../support/openai-batch-server.js';

// What a finished batch leaves behind when the provider writes it badly,
// read through the real `openai` client: output files with broken lines, a
// batch that fails mid-way with an output file, file ids that come late,
// and what the server billed and was sent, for a client's report to match.

const API_KEY = 'sk-test-batch';
const IDS = ['a', 'b', 'c', 'd'];
const running: OpenAiBatchServer[] = [];

afterEach(async () => {
  await Promise.all(running.splice(0).map((server) => server.close()));
});

async function start(options: Partial<BatchServerOptions> = {}): Promise<{ server: OpenAiBatchServer; client: OpenAI }> {
  // Lines in input order, so a test can name which line a fault takes.
  const server = await startOpenAiBatchServer({ oracle: lengthOracle, apiKey: API_KEY, outputOrder: 'input', ...options });
  running.push(server);
  return { server, client: new OpenAI({ baseURL: server.baseUrl, apiKey: API_KEY, maxRetries: 0 }) };
}

/** Submits a, b, c, d (the oracle rates them 1, 2, 3, 4), settles the batch and gives back its output file's text. */
async function settledOutput(server: OpenAiBatchServer, client: OpenAI): Promise<{ batchId: string; text: string }> {
  const created = await submit(
    client,
    IDS.map((id, index) => lineOf(id, judgeBody('x'.repeat(index + 1)))),
  );
  const done = await client.batches.retrieve(server.settle(created.id)?.id ?? '');
  const text = done.output_file_id ? await (await client.files.content(done.output_file_id)).text() : '';
  return { batchId: created.id, text };
}

describe('broken lines in the output file', () => {
  it('replaces the first lines with text that is not JSON, still billing them', async () => {
    // Prepare
    const { server, client } = await start({ faults: { notJsonLines: 2 } });
    // Act
    const { batchId, text } = await settledOutput(server, client);
    // Assess
    expect(text.split('\n').slice(0, 2)).toEqual(['this is not json', 'this is not json']);
    expect(jsonLines<ResultLine>(text).map((line) => line?.custom_id)).toEqual([undefined, undefined, 'c', 'd']);
    expect(server.brokenLines).toEqual([
      { batchId, custom_id: 'a', kind: 'notJsonLines' },
      { batchId, custom_id: 'b', kind: 'notJsonLines' },
    ]);
    expect(server.billed(batchId).lines).toBe(4);
    expect(Object.fromEntries(server.judged)).toEqual({ a: 1, b: 1, c: 1, d: 1 });
  });

  it('cuts the last line in the middle, with no final newline', async () => {
    const { server, client } = await start({ faults: { cutLastLine: true } });
    const { batchId, text } = await settledOutput(server, client);
    expect(text.endsWith('\n')).toBe(false);
    expect(jsonLines<ResultLine>(text).map((line) => line?.custom_id)).toEqual(['a', 'b', 'c', undefined]);
    expect(text.split('\n').at(-1)).toMatch(/^\{"id":"batch_req_test1_4","custom_id":"d"/);
    expect(server.brokenLines).toEqual([{ batchId, custom_id: 'd', kind: 'cutLastLine' }]);
  });

  it('adds lines whose custom_id is no request of the batch, each a valid answer, and bills them', async () => {
    const { server, client } = await start({ faults: { unknownIdLines: 2 } });
    const { batchId, text } = await settledOutput(server, client);
    const unknown = jsonLines<ResultLine>(text).slice(4);
    expect(unknown.map((line) => line?.custom_id)).toEqual(['unknown-test1-1', 'unknown-test1-2']);
    expect(unknown.map((line) => line?.response?.status_code)).toEqual([200, 200]);
    expect(unknown[0]?.response?.body).toMatchObject({ object: 'chat.completion', usage: { prompt_tokens: expect.any(Number) } });
    expect([...server.sent.keys()]).toEqual(IDS);
    expect(server.brokenLines.map((line) => [line.custom_id, line.kind])).toEqual([
      ['unknown-test1-1', 'unknownIdLines'],
      ['unknown-test1-2', 'unknownIdLines'],
    ]);
    expect(server.billed(batchId).lines).toBe(6);
  });

  it('writes the first lines a second time, after the others, with another answer under the same custom_id', async () => {
    const { server, client } = await start({ faults: { duplicateLines: 1 } });
    const { batchId, text } = await settledOutput(server, client);
    const lines = jsonLines<ResultLine>(text);
    const contents = lines.map((line) => [line?.custom_id, line?.response?.body.choices[0]?.message.content]);
    // The copy carries b's answer (rating 2) where a's first answer rates 1.
    expect(contents).toEqual([
      ['a', '{"rating":1}'],
      ['b', '{"rating":2}'],
      ['c', '{"rating":3}'],
      ['d', '{"rating":4}'],
      ['a', '{"rating":2}'],
    ]);
    expect(server.brokenLines).toEqual([{ batchId, custom_id: 'a', kind: 'duplicateLines' }]);
    expect(server.billed(batchId).lines).toBe(5);
  });

  it('writes an error object as the body of lines whose status_code is 200, and bills them nothing', async () => {
    const { server, client } = await start({ faults: { errorBodyUnder200: 1 } });
    const { batchId } = await settledOutput(server, client);
    const done = await client.batches.retrieve(batchId);
    const [first] = await resultLines(client, done.output_file_id);
    expect(first).toMatchObject({
      custom_id: 'a',
      response: { status_code: 200, body: { error: { message: expect.any(String), type: 'server_error', code: 'server_error' } } },
    });
    expect(done.request_counts).toEqual({ total: 4, completed: 4, failed: 0 });
    expect(server.brokenLines).toEqual([{ batchId, custom_id: 'a', kind: 'errorBodyUnder200' }]);
    expect(server.billed(batchId).lines).toBe(3);
  });
});

describe('a batch that ends failed or slow to name its files', () => {
  it('fails after the given lines, its output file holding them and its counts saying so, as OpenAI fails a batch mid-way', async () => {
    // Prepare
    const { server, client } = await start({ faults: { failAfterLines: 2 }, linesPerStep: 1 });
    const created = await submit(
      client,
      IDS.map((id) => lineOf(id)),
    );
    // Act
    const polls = [];
    for (let poll = 0; poll < 3; poll++) polls.push(await client.batches.retrieve(created.id));
    const failed = polls[2];
    // Assess: validated, one line, then the second line and the failure
    expect(polls.map((batch) => batch.status)).toEqual(['in_progress', 'in_progress', 'failed']);
    expect(failed).toMatchObject({ request_counts: { total: 4, completed: 2, failed: 0 }, error_file_id: null });
    expect(failed?.failed_at).toBeGreaterThan(0);
    expect(failed?.errors?.data).toEqual([
      { code: 'server_error', message: expect.stringContaining('The batch failed after 2 of its 4 requests ran'), param: null, line: null },
    ]);
    expect((await resultLines(client, failed?.output_file_id)).map((line) => line.custom_id)).toEqual(['a', 'b']);
    expect(server.billed(created.id).lines).toBe(2);
  });

  it('answers completed with null file ids to the first polls after it finished, then names them', async () => {
    const { server, client } = await start({ faults: { outputFileLagPolls: 2 }, progress: 'manual' });
    const created = await submit(client, [lineOf('a')]);
    server.settle(created.id);
    const polls = [];
    for (let poll = 0; poll < 3; poll++) polls.push(await client.batches.retrieve(created.id));
    expect(polls.map((batch) => [batch.status, batch.output_file_id])).toEqual([
      ['completed', null],
      ['completed', null],
      ['completed', expect.stringMatching(/^file-test/)],
    ]);
  });
});

describe('what the server billed and was sent', () => {
  it('bills the usage the output lines carry, and counts each custom_id once a batch that sent it', async () => {
    // Prepare
    const { server, client } = await start();
    // Act
    const first = await submit(client, [lineOf('a'), lineOf('b')]);
    const second = await submit(client, [lineOf('b')]);
    const done = [server.settle(first.id), server.settle(second.id)];
    // Assess
    expect(Object.fromEntries(server.sent)).toEqual({ a: 1, b: 2 });
    expect(server.billed(first.id)).toEqual({
      input_tokens: done[0]?.usage?.input_tokens,
      output_tokens: done[0]?.usage?.output_tokens,
      lines: 2,
    });
    expect(server.billed().lines).toBe(3);
    expect(server.billed().input_tokens).toBe((done[0]?.usage?.input_tokens ?? 0) + (done[1]?.usage?.input_tokens ?? 0));
  });
});
