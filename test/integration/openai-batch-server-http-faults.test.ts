import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { failureOf, judgeBody, lengthOracle, lineOf, resultLines, submit } from '../support/openai-batch/batch-client.js';
import { startOpenAiBatchServer, type BatchServerOptions, type OpenAiBatchServer } from '../support/openai-batch-server.js';
import { until } from '../support/until.js';

// The batch test server's HTTP faults, key echo, hostile text, short windows
// and held creates, driven through the real `openai` client as a batch
// judge meets them.

const API_KEY = 'sk-test-batch';
const AZURE_KEY = 'azure-test-key';
const running: OpenAiBatchServer[] = [];

afterEach(async () => {
  await Promise.all(running.splice(0).map((server) => server.close()));
});

async function start(options: Partial<BatchServerOptions> = {}, maxRetries = 0): Promise<{ server: OpenAiBatchServer; client: OpenAI }> {
  const server = await startOpenAiBatchServer({ oracle: lengthOracle, apiKey: API_KEY, azureKey: AZURE_KEY, ...options });
  running.push(server);
  return { server, client: new OpenAI({ baseURL: server.baseUrl, apiKey: API_KEY, maxRetries }) };
}

const pollStatuses = (server: OpenAiBatchServer) =>
  server.log.filter((call) => call.method === 'GET' && call.path.startsWith('/v1/batches/')).map((call) => call.status);

describe('HTTP faults', () => {
  it('answers three polls 500 and then the batch, which the client retries through when told how long to wait', async () => {
    // Prepare
    const fault = { route: 'GET batches/{id}', status: 500, times: 3, headers: { 'retry-after-ms': '1' } } as const;
    const { server, client } = await start({}, 3);
    const created = await submit(client, [lineOf('a')]);
    server.setFaults({ httpFaults: [fault] });
    // Act
    const retrieved = await client.batches.retrieve(created.id);
    // Assess
    expect(retrieved.status).toBe('in_progress');
    expect(pollStatuses(server)).toEqual([500, 500, 500, 200]);
  });

  it("answers 429 in OpenAI's error shape without stepping the batch, then recovers", async () => {
    const { server, client } = await start({ faults: { httpFaults: [{ method: 'GET', route: 'batches/{id}', status: 429, times: 2 }] } });
    const created = await submit(client, [lineOf('a')]);
    const refused = [await failureOf(client.batches.retrieve(created.id)), await failureOf(client.batches.retrieve(created.id))];
    const recovered = await client.batches.retrieve(created.id);
    expect(refused.map((error) => [error.status, error.code, error.type])).toEqual([
      [429, 'rate_limit_exceeded', 'requests'],
      [429, 'rate_limit_exceeded', 'requests'],
    ]);
    // The refused polls did no work: the first poll that got through validated the batch.
    expect(recovered.status).toBe('in_progress');
    expect(recovered.request_counts?.completed).toBe(0);
    expect(pollStatuses(server)).toEqual([429, 429, 200]);
  });

  it('answers 404 once on a file content the batch names (storage lag), then the content', async () => {
    const { server, client } = await start({ faults: { httpFaults: [{ route: 'GET files/{id}/content', status: 404, times: 1 }] } });
    const created = await submit(client, [lineOf('a')]);
    const outputFileId = server.settle(created.id)?.output_file_id ?? '';
    const missing = await failureOf(client.files.content(outputFileId));
    const lines = await resultLines(client, outputFileId);
    expect(missing.status).toBe(404);
    expect(lines.map((line) => line.custom_id)).toEqual(['a']);
  });

  it("cuts the connection for a network error, and answers in Azure's error shape on /openai", async () => {
    const { server, client } = await start({
      faults: {
        httpFaults: [
          { route: 'GET batches', cut: true, times: 1 },
          { route: 'GET batches', status: 503 },
        ],
      },
    });
    const azure = new OpenAI({ baseURL: `${server.origin}/openai/v1`, apiKey: AZURE_KEY, maxRetries: 0 });
    const cut = await client.batches.list().then(
      () => expect.fail('expected the connection to be cut'),
      (error: unknown) => error,
    );
    const outage = await failureOf(azure.batches.list());
    expect(cut).toBeInstanceOf(OpenAI.APIConnectionError);
    expect(outage.status).toBe(503);
    expect(outage.error).toEqual({ code: '503', message: 'The engine is currently overloaded, please try again later.' });
    expect(server.log.map((call) => call.status)).toEqual([0, 503]);
  });
});

describe('the key echoed back, and hostile text', () => {
  it('writes the key verbatim into error lines, 401 lines, a failed batch errors and default HTTP error bodies', async () => {
    // Prepare
    const { server, client } = await start({
      faults: { echoKey: true, serverErrorLines: ['a'], unauthorizedLines: ['b'], failAfterLines: 3 },
    });
    const created = await submit(
      client,
      ['a', 'b', 'c', 'd'].map((id) => lineOf(id)),
    );
    // Act
    const failed = server.settle(created.id);
    const errors = await resultLines(client, failed?.error_file_id);
    server.setFaults({ echoKey: true, httpFaults: [{ route: 'GET batches/{id}', status: 500 }] });
    const refused = await failureOf(client.batches.retrieve(created.id));
    // Assess
    expect(errors.map((line) => [line.custom_id, line.response?.status_code])).toEqual([
      ['b', 401],
      ['a', 500],
    ]);
    for (const line of errors) expect(line.response?.body.error).toMatchObject({ message: expect.stringContaining(API_KEY) });
    expect(errors[0]?.response?.body.error).toMatchObject({
      code: 'invalid_api_key',
      message: expect.stringMatching(/^Incorrect API key provided/),
    });
    expect(failed?.errors?.data?.[0]?.message).toContain(API_KEY);
    expect(refused.message).toContain(API_KEY);
  });

  it('appends its suffix to the status while in_progress only, and to error messages, and the batch still completes', async () => {
    const statusSuffix = '\u001b]0;pwned\u0007';
    const { client } = await start({ faults: { statusSuffix, errorMessageSuffix: '\u202e', serverErrorLines: ['a'] } });
    const created = await submit(client, [lineOf('a'), lineOf('b')]);
    const polls = [];
    for (let poll = 0; poll < 4; poll++) polls.push(await client.batches.retrieve(created.id));
    const [error] = await resultLines(client, polls[3]?.error_file_id);
    expect(polls.map((batch) => batch.status)).toEqual([
      `in_progress${statusSuffix}`,
      `in_progress${statusSuffix}`,
      'finalizing',
      'completed',
    ]);
    expect(error?.response?.body.error).toMatchObject({ message: expect.stringMatching(/\u202e$/) });
  });
});

describe('windows and held creates', () => {
  it('sets expires_at a short window after created_at, from the options or the plan', async () => {
    const { server, client } = await start({ completionWindowSeconds: 60 });
    const fromOptions = await submit(client, [lineOf('a')]);
    server.setFaults({ completionWindowSeconds: 2 });
    const fromPlan = await submit(client, [lineOf('a')]);
    expect((fromOptions.expires_at ?? 0) - fromOptions.created_at).toBe(60);
    expect((fromPlan.expires_at ?? 0) - fromPlan.created_at).toBe(2);
  });

  it('holds a create until released, after its file was uploaded', async () => {
    // Prepare
    const { server, client } = await start({ faults: { holdCreate: true } });
    // Act
    const creating = submit(client, [lineOf('a', judgeBody('held?'))]);
    await until(() => server.heldCreates === 1, 2_000);
    const whileHeld = { batches: server.batches.size, files: server.files.size };
    server.releaseCreate();
    const created = await creating;
    // Assess
    expect(whileHeld).toEqual({ batches: 0, files: 1 });
    expect(created.status).toBe('validating');
    expect(server.heldCreates).toBe(0);
  });

  it('drops a held create unanswered and uncreated when the server closes', async () => {
    const { server, client } = await start({ faults: { holdCreate: true } });
    const creating = submit(client, [lineOf('a')]).then(
      () => 'created',
      (error: unknown) => (error instanceof OpenAI.APIConnectionError ? 'connection error' : String(error)),
    );
    await until(() => server.heldCreates === 1, 2_000);
    await server.close();
    expect(await creating).toBe('connection error');
    expect(server.batches.size).toBe(0);
  });
});
