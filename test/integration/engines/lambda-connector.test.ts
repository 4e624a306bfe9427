import { afterEach, describe, expect, it } from 'vitest';
import type { Engine } from '../../../shared/engines/engine.js';
import { buildEngine, farDeadline } from '../../support/engine-configs.js';
import { fixtureJson } from '../../support/fixture-json.js';
import { startRecordingServer, type RecordingServer, type ScriptedAnswer } from '../../support/recording-server.js';

/**
 * The lambda connector through the real SDK against a loopback server that
 * speaks the Invoke API (POST /2015-03-31/functions/<name>/invocations, the
 * payload as the body, X-Amz-Function-Error for an error the function raised).
 */

const FUNCTION_ANSWER = fixtureJson('engines/lambda-search-answer.json');
const AWS_ENV = { AWS_ACCESS_KEY_ID: 'AKIDLOOPBACKTEST', AWS_SECRET_ACCESS_KEY: 'loopback-secret-key-value' };
const RESULTS = 'results[].{doc_uri: id, content: passage, score: relevance}';

let server: RecordingServer | undefined;
let engine: Engine | undefined;

async function serve(answer: (index: number) => ScriptedAnswer): Promise<RecordingServer> {
  server = await startRecordingServer((_, index) => answer(index));
  return server;
}

function lambdaEngine(
  endpoint: string,
  overrides: Record<string, unknown> = {},
  retries = 0,
  settings: Record<string, unknown> = {},
): Engine {
  return buildEngine(
    {
      name: 'fn',
      retries,
      ...settings,
      lambda: { function_name: 'search-docs', region: 'us-east-1', results: RESULTS, response: 'generated', endpoint, ...overrides },
    },
    AWS_ENV,
  );
}

afterEach(async () => {
  await engine?.close();
  engine = undefined;
  await server?.close();
  server = undefined;
});

describe('lambda connector against a loopback Invoke API', () => {
  it('invokes the function with the rendered payload and maps its answer', async () => {
    // Prepare
    const lambda = await serve(() => ({ body: FUNCTION_ANSWER }));
    engine = buildEngine(
      {
        name: 'fn',
        matrix: { alias: ['live'], top_k: [5] },
        lambda: {
          function_name: 'search-docs:{{alias}}',
          region: 'us-east-1',
          payload: { q: '{{query}}', id: '{{request_id}}', top_k: '{{top_k}}' },
          results: RESULTS,
          response: 'generated',
          endpoint: lambda.url,
        },
      },
      AWS_ENV,
    );

    // Act
    const result = await engine.call({ query: 'rotate access keys', request_id: 'q7' }, farDeadline());

    // Assess
    expect(result.ok && result.value.hits).toEqual([
      { doc_uri: 'iam-rotate-keys', content: 'Create a second access key, switch, then delete the old key.', score: 0.91 },
      { doc_uri: 'sts-temporary-creds', content: 'STS issues credentials that expire.', score: 0.55 },
    ]);
    expect(result.ok && result.value.response).toBe('Create a second key, switch to it, and delete the old one.');
    const [sent] = lambda.requests;
    expect(sent?.method).toBe('POST');
    expect(sent?.url).toBe('/2015-03-31/functions/search-docs%3Alive/invocations');
    expect(sent?.headers['x-amz-invocation-type']).toBe('RequestResponse');
    expect(JSON.parse(sent?.body ?? '')).toEqual({ q: 'rotate access keys', id: 'q7', top_k: 5 });
    expect(sent?.headers.authorization).toMatch(/Credential=AKIDLOOPBACKTEST\/\d{8}\/us-east-1\/lambda\/aws4_request/);
  });

  it('sends the default payload {query, request_id} when none is configured', async () => {
    // Prepare
    const lambda = await serve(() => ({ body: FUNCTION_ANSWER }));
    engine = lambdaEngine(lambda.url);

    // Act
    await engine.call({ query: 'rotate access keys', request_id: 'q7' }, farDeadline());

    // Assess
    expect(JSON.parse(lambda.requests[0]?.body ?? '')).toEqual({ query: 'rotate access keys', request_id: 'q7' });
  });

  it.each([
    [
      'an error the function raised',
      { headers: { 'x-amz-function-error': 'Unhandled' }, body: { errorType: 'KeyError', errorMessage: "'index'" } },
      'permanent',
      `the function failed (Unhandled): {"errorType":"KeyError","errorMessage":"'index'"}`,
    ],
    [
      'a function timeout',
      {
        headers: { 'x-amz-function-error': 'Unhandled' },
        body: { errorMessage: '2026-01-01T00:00:00.000Z 1f2e Task timed out after 3.00 seconds' },
      },
      'transient',
      'Task timed out after 3.00 seconds',
    ],
    [
      'throttling',
      {
        status: 429,
        headers: { 'x-amzn-errortype': 'TooManyRequestsException' },
        body: { message: 'Rate Exceeded.', Reason: 'ReservedFunctionConcurrentInvocationLimitExceeded' },
      },
      'transient',
      'TooManyRequestsException: Rate Exceeded.',
    ],
    [
      'a missing function',
      { status: 404, headers: { 'x-amzn-errortype': 'ResourceNotFoundException' }, body: { message: 'Function not found: search-docs' } },
      'permanent',
      'ResourceNotFoundException: Function not found: search-docs',
    ],
    [
      'an answer results cannot map',
      { body: { items: [] } },
      'permanent',
      'results expression "results[].{doc_uri: id, content: passage, score: relevance}" gave null',
    ],
  ] as const)('classifies %s', async (_, answer, kind, expected) => {
    // Prepare
    const lambda = await serve(() => answer);
    engine = lambdaEngine(lambda.url);

    // Act
    const result = await engine.call({ query: 'rotate access keys', request_id: 'q7' }, farDeadline());

    // Assess
    expect(!result.ok && result.error.kind).toBe(kind);
    expect(!result.ok && result.error.message).toContain(expected);
    expect(!result.ok && result.error.message.startsWith('lambda search-docs (us-east-1): ')).toBe(true);
  });

  it("refuses an answer above the engine's max_answer_bytes as permanent", async () => {
    // Prepare: an answer of over 1 KiB
    const lambda = await serve(() => ({ body: { answer: FUNCTION_ANSWER, padding: 'x'.repeat(2_000) } }));
    engine = lambdaEngine(lambda.url, {}, 2, { max_answer_bytes: 1024 });

    // Act
    const result = await engine.call({ query: 'rotate access keys', request_id: 'q7' }, farDeadline());

    // Assess
    expect(!result.ok && result.error).toEqual({
      kind: 'permanent',
      message: expect.stringMatching(
        /^lambda search-docs \(us-east-1\): the function's answer is \d+ bytes, above max_answer_bytes \(1024 bytes\) \(fix: return fewer or shorter hits, or raise max_answer_bytes\)$/,
      ),
    });
    expect(lambda.requests).toHaveLength(1);
  });
});
