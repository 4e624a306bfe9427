import { afterEach, describe, expect, it } from 'vitest';
import type { Engine } from '../../../shared/engines/engine.js';
import { buildEngine, farDeadline } from '../../support/engine-configs.js';
import { fixtureJson } from '../../support/fixture-json.js';
import { startRecordingServer, type RecordingServer, type ScriptedAnswer } from '../../support/recording-server.js';

/**
 * Bedrock Knowledge Bases cannot run here: the SDK's endpoint points at a
 * loopback server that replays answers shaped as the documented Retrieve and
 * RetrieveAndGenerate responses, with dummy credentials, and checks the
 * request the SDK sent. The server speaks HTTP/1.1, as the connector does to
 * an http:// endpoint (a proxy, LocalStack): the SDK's own handler for this
 * service speaks only HTTP/2, which it keeps for https:// endpoints. A server
 * that speaks only HTTP/2 behind http:// fails every call, saying so.
 */

const RETRIEVE_ANSWER = fixtureJson('engines/bedrock-retrieve.json');
const GENERATE_ANSWER = fixtureJson('engines/bedrock-retrieve-and-generate.json');
const AWS_ENV = { AWS_ACCESS_KEY_ID: 'AKIDLOOPBACKTEST', AWS_SECRET_ACCESS_KEY: 'loopback-secret-key-value' };
const MODEL_ARN = 'arn:aws:bedrock:us-east-1::foundation-model/anthropic.claude-3-haiku-20240307-v1:0';

let server: RecordingServer | undefined;
let engine: Engine | undefined;

async function serve(answer: (index: number) => ScriptedAnswer, options: { http2?: boolean } = {}): Promise<RecordingServer> {
  server = await startRecordingServer((_, index) => answer(index), options);
  return server;
}

afterEach(async () => {
  await engine?.close();
  engine = undefined;
  await server?.close();
  server = undefined;
});

describe('bedrock_kb connector against recorded Bedrock answers', () => {
  it('calls Retrieve and maps each result to its source document, content and score', async () => {
    // Prepare
    const bedrock = await serve(() => ({ body: RETRIEVE_ANSWER }));
    engine = buildEngine(
      { name: 'kb', bedrock_kb: { knowledge_base_id: 'KB12345678', number_of_results: 2, region: 'us-east-1', endpoint: bedrock.url } },
      AWS_ENV,
    );

    // Act
    const result = await engine.call({ query: 'rotate access keys', request_id: 'q1' }, farDeadline());

    // Assess
    expect(result.ok && result.value).toMatchObject({
      hits: [
        {
          doc_uri: 's3://kb-docs/iam/rotate-keys.md',
          content: 'To rotate an access key without downtime, create a second key first.',
          score: 0.8312,
        },
        {
          doc_uri: 'https://docs.example.com/iam/roles',
          content: 'Roles give temporary credentials, so nothing needs rotating.',
          score: 0.7204,
        },
      ],
    });
    expect(result.ok && result.value.response).toBeUndefined();
    const [sent] = bedrock.requests;
    expect(sent?.method).toBe('POST');
    expect(sent?.url).toBe('/knowledgebases/KB12345678/retrieve');
    expect(JSON.parse(sent?.body ?? '')).toEqual({
      retrievalQuery: { text: 'rotate access keys' },
      retrievalConfiguration: { vectorSearchConfiguration: { numberOfResults: 2 } },
    });
    expect(sent?.headers.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIDLOOPBACKTEST\/\d{8}\/us-east-1\/bedrock\/aws4_request/);
  });

  it('calls RetrieveAndGenerate when a model is set: the answer, and the cited references once each in citation order', async () => {
    // Prepare
    const bedrock = await serve(() => ({ body: GENERATE_ANSWER }));
    engine = buildEngine(
      { name: 'kb-rag', bedrock_kb: { knowledge_base_id: 'KB12345678', region: 'us-east-1', model_arn: MODEL_ARN, endpoint: bedrock.url } },
      AWS_ENV,
    );

    // Act
    const result = await engine.call({ query: 'rotate access keys', request_id: 'q1' }, farDeadline());

    // Assess
    expect(result.ok && result.value.response).toBe(
      'Create a second access key, switch to it, then delete the old one. Prefer roles, which need no rotation.',
    );
    expect(result.ok && result.value.hits).toEqual([
      { doc_uri: 's3://kb-docs/iam/rotate-keys.md', content: 'To rotate an access key without downtime, create a second key first.' },
      { doc_uri: 'https://docs.example.com/iam/roles', content: 'Roles give temporary credentials, so nothing needs rotating.' },
    ]);
    const [sent] = bedrock.requests;
    expect(sent?.url).toBe('/retrieveAndGenerate');
    expect(JSON.parse(sent?.body ?? '')).toEqual({
      input: { text: 'rotate access keys' },
      retrieveAndGenerateConfiguration: {
        type: 'KNOWLEDGE_BASE',
        knowledgeBaseConfiguration: {
          knowledgeBaseId: 'KB12345678',
          modelArn: MODEL_ARN,
          retrievalConfiguration: { vectorSearchConfiguration: { numberOfResults: 10 } },
        },
      },
    });
  });

  it('retries a ThrottlingException as transient', async () => {
    // Prepare
    const throttled: ScriptedAnswer = {
      status: 429,
      headers: { 'x-amzn-errortype': 'ThrottlingException' },
      body: { message: 'Rate exceeded' },
    };
    const bedrock = await serve((index) => (index === 0 ? throttled : { body: RETRIEVE_ANSWER }));
    engine = buildEngine(
      { name: 'kb', retries: 1, bedrock_kb: { knowledge_base_id: 'KB12345678', region: 'us-east-1', endpoint: bedrock.url } },
      AWS_ENV,
    );

    // Act
    const result = await engine.call({ query: 'rotate access keys', request_id: 'q1' }, farDeadline());

    // Assess
    expect(result.ok).toBe(true);
    expect(bedrock.requests).toHaveLength(2);
  });

  it('fails permanently on AccessDeniedException, without the secret key in the message', async () => {
    // Prepare
    const denied: ScriptedAnswer = {
      status: 403,
      headers: { 'x-amzn-errortype': 'AccessDeniedException' },
      body: { message: 'not authorized to perform bedrock:Retrieve' },
    };
    const bedrock = await serve(() => denied);
    engine = buildEngine(
      { name: 'kb', retries: 2, bedrock_kb: { knowledge_base_id: 'KB12345678', region: 'us-east-1', endpoint: bedrock.url } },
      AWS_ENV,
    );

    // Act
    const result = await engine.call({ query: 'rotate access keys', request_id: 'q1' }, farDeadline());

    // Assess
    expect(result).toEqual({
      ok: false,
      error: {
        kind: 'permanent',
        message: 'bedrock knowledge base KB12345678 (us-east-1): AccessDeniedException: not authorized to perform bedrock:Retrieve',
      },
    });
    expect(bedrock.requests).toHaveLength(1);
  });

  it('retries an answer cut mid-body as transient, and counts the cut attempt', async () => {
    // Prepare: the first answer stops half-way and the connection is cut; the second is whole
    const text = JSON.stringify(RETRIEVE_ANSWER);
    const bedrock = await serve((index) =>
      index === 0 ? { body: RETRIEVE_ANSWER, cutAfter: text.slice(0, text.length / 2) } : { body: RETRIEVE_ANSWER },
    );
    engine = buildEngine(
      { name: 'kb', retries: 1, bedrock_kb: { knowledge_base_id: 'KB12345678', region: 'us-east-1', endpoint: bedrock.url } },
      AWS_ENV,
    );

    // Act
    const result = await engine.call({ query: 'rotate access keys', request_id: 'q1' }, farDeadline());

    // Assess
    expect(result.ok && result.value.attempts).toBe(2);
    expect(result.ok && result.value.hits).toHaveLength(2);
  });

  it('says the connection broke when every answer is cut short', async () => {
    // Prepare: over HTTP/1.1 the SDK sees the body end before its Content-Length (over HTTP/2 it took such a body for whole JSON)
    const text = JSON.stringify(RETRIEVE_ANSWER);
    const bedrock = await serve(() => ({ body: RETRIEVE_ANSWER, cutAfter: text.slice(0, 30) }));
    engine = buildEngine(
      { name: 'kb', retries: 0, bedrock_kb: { knowledge_base_id: 'KB12345678', region: 'us-east-1', endpoint: bedrock.url } },
      AWS_ENV,
    );

    // Act
    const result = await engine.call({ query: 'rotate access keys', request_id: 'q1' }, farDeadline());

    // Assess
    expect(result).toEqual({
      ok: false,
      error: { kind: 'transient', message: 'bedrock knowledge base KB12345678 (us-east-1): the connection was reset (ECONNRESET)' },
    });
  });

  it('fails permanently, saying what it spoke and what would work, when the http:// endpoint speaks only HTTP/2', async () => {
    // Prepare
    const bedrock = await serve(() => ({ body: RETRIEVE_ANSWER }), { http2: true });
    engine = buildEngine(
      { name: 'kb', retries: 2, bedrock_kb: { knowledge_base_id: 'KB12345678', region: 'us-east-1', endpoint: bedrock.url } },
      AWS_ENV,
    );

    // Act
    const result = await engine.call({ query: 'rotate access keys', request_id: 'q1' }, farDeadline());

    // Assess: not retried, and no request the server could read
    expect(result).toEqual({
      ok: false,
      error: {
        kind: 'permanent',
        message: `bedrock knowledge base KB12345678 (us-east-1) at ${bedrock.url} did not answer in HTTP/1.1 (Parse Error: Expected HTTP/, RTSP/ or ICE/, HPE_INVALID_CONSTANT): the connector speaks HTTP/1.1 to an http:// endpoint; a server that speaks only HTTP/2 needs its https:// address`,
      },
    });
    expect(bedrock.requests).toEqual([]);
  });
});
