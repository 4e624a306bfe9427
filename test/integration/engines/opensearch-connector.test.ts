import { afterEach, describe, expect, it } from 'vitest';
import type { Engine } from '../../../shared/engines/engine.js';
import { buildEngine, farDeadline } from '../../support/engine-configs.js';
import { fixtureJson } from '../../support/fixture-json.js';
import { startRawHttpServer, streamUntilClosed } from '../../support/raw-http-server.js';
import { startRecordingServer, type RecordingServer, type ScriptedAnswer } from '../../support/recording-server.js';

/**
 * OpenSearch cannot run here, so the connector talks to a loopback server
 * that replays an answer shaped as the documented `_search` response and
 * checks the request the client sent: method, path, query string, body and,
 * with `aws`, the SigV4 signature headers.
 */

const SEARCH_ANSWER = fixtureJson('engines/opensearch-search.json');
const QUERY = {
  query: { multi_match: { query: '{{query}}', fields: ['title^2', 'text'] } },
  _source: ['doc_id', 'text', 'meta'],
  min_score: '{{min_score}}',
};
const AWS_ENV = { AWS_ACCESS_KEY_ID: 'AKIDLOOPBACKTEST', AWS_SECRET_ACCESS_KEY: 'loopback-secret-key-value' };

let server: RecordingServer | undefined;
let engine: Engine | undefined;

async function serve(answer: (index: number) => ScriptedAnswer): Promise<RecordingServer> {
  server = await startRecordingServer((_, index) => answer(index));
  return server;
}

afterEach(async () => {
  await engine?.close();
  engine = undefined;
  await server?.close();
  server = undefined;
});

describe('opensearch connector against a recorded _search answer', () => {
  it('posts the rendered query DSL to <index>/_search and maps id_field and content_field', async () => {
    // Prepare
    const cluster = await serve(() => ({ body: SEARCH_ANSWER }));
    engine = buildEngine({
      name: 'os',
      matrix: { min_score: [0.5] },
      opensearch: { url: cluster.url, index: 'docs-v2', query: QUERY, id_field: 'doc_id', content_field: 'text', size: 3 },
    });

    // Act
    const result = await engine.call({ query: 'rotate keys', request_id: 'q1' }, farDeadline());

    // Assess
    expect(result.ok && result.value.hits).toEqual([
      {
        doc_uri: 'iam-rotate-keys',
        content: 'Create a second access key, switch the applications, then delete the old key.',
        score: 2.871,
      },
      { doc_uri: 'iam-best-practices', content: 'Prefer roles with temporary credentials over long-term keys.', score: 1.402 },
      { doc_uri: 'kms-key-rotation', content: 'KMS rotates key material every year.', score: 0.95 },
    ]);
    const [sent] = cluster.requests;
    expect(sent?.method).toBe('POST');
    expect(sent?.url).toBe('/docs-v2/_search?size=3');
    expect(JSON.parse(sent?.body ?? '')).toEqual({
      query: { multi_match: { query: 'rotate keys', fields: ['title^2', 'text'] } },
      _source: ['doc_id', 'text', 'meta'],
      min_score: 0.5,
    });
    expect(sent?.headers.authorization).toBeUndefined();
  });

  it('uses _id by default and reads a nested content field', async () => {
    // Prepare
    const cluster = await serve(() => ({ body: SEARCH_ANSWER }));
    engine = buildEngine({
      name: 'os',
      opensearch: { url: cluster.url, index: 'docs-v2', query: { query: { match: { text: '{{query}}' } } }, content_field: 'meta.url' },
    });

    // Act
    const result = await engine.call({ query: 'rotate keys', request_id: 'q1' }, farDeadline());

    // Assess
    expect(result.ok && result.value.hits.map((hit) => [hit.doc_uri, hit.content])).toEqual([
      ['c1f0', 'https://docs.example.com/iam/rotate'],
      ['9ab3', 'https://docs.example.com/iam/best'],
      ['77e2', 'https://docs.example.com/kms/rotate'],
    ]);
    expect(cluster.requests[0]?.url).toBe('/docs-v2/_search?size=10');
  });

  it.each([
    ['es', 'us-east-1'],
    ['aoss', 'eu-west-1'],
  ] as const)('signs requests with SigV4 for service %s', async (service, region) => {
    // Prepare
    const cluster = await serve(() => ({ body: SEARCH_ANSWER }));
    engine = buildEngine(
      {
        name: 'os',
        opensearch: { url: cluster.url, index: 'docs-v2', query: { query: { match: { text: '{{query}}' } } }, aws: { region, service } },
      },
      AWS_ENV,
    );

    // Act
    const result = await engine.call({ query: 'rotate keys', request_id: 'q1' }, farDeadline());

    // Assess
    expect(result.ok).toBe(true);
    const headers = cluster.requests[0]?.headers ?? {};
    expect(headers.authorization).toMatch(
      new RegExp(
        `^AWS4-HMAC-SHA256 Credential=AKIDLOOPBACKTEST/\\d{8}/${region}/${service}/aws4_request, SignedHeaders=[a-z0-9;-]+, Signature=[0-9a-f]{64}$`,
      ),
    );
    expect(headers['x-amz-date']).toMatch(/^\d{8}T\d{6}Z$/);
    expect(headers['x-amz-content-sha256']).toMatch(/^[0-9a-f]{64}$/);
  });

  it.each([
    [429, 'transient'],
    [503, 'transient'],
    [400, 'permanent'],
    [403, 'permanent'],
  ] as const)('classifies HTTP %i as %s', async (status, kind) => {
    // Prepare
    const cluster = await serve(() => ({ status, body: { error: { type: 'some_exception', reason: `status ${status}` }, status } }));
    engine = buildEngine({
      name: 'os',
      retries: 0,
      opensearch: { url: cluster.url, index: 'docs-v2', query: { query: { match_all: {} } } },
    });

    // Act
    const result = await engine.call({ query: 'rotate keys', request_id: 'q1' }, farDeadline());

    // Assess
    expect(result).toEqual({
      ok: false,
      error: {
        kind,
        message: `opensearch ${cluster.url} index docs-v2 answered HTTP ${status}: {"error":{"type":"some_exception","reason":"status ${status}"},"status":${status}}`,
      },
    });
  });

  it('fails permanently when hits lack the configured id field', async () => {
    // Prepare
    const cluster = await serve(() => ({ body: SEARCH_ANSWER }));
    engine = buildEngine({
      name: 'os',
      opensearch: { url: cluster.url, index: 'docs-v2', query: { query: { match_all: {} } }, id_field: 'document_id' },
    });

    // Act
    const result = await engine.call({ query: 'rotate keys', request_id: 'q1' }, farDeadline());

    // Assess
    expect(result).toEqual({
      ok: false,
      error: {
        kind: 'permanent',
        message: `opensearch ${cluster.url} index docs-v2: hits do not give id_field "document_id": item 1: doc_uri: expected a non-empty text or a number`,
      },
    });
  });

  it("stops reading an answer that passes the engine's max_answer_bytes, as a permanent error", async () => {
    // Prepare: a cluster that would stream 16 MiB of hits
    let sent: Promise<{ written: number; closedEarly: boolean }> | undefined;
    const cluster = await startRawHttpServer((_, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write('{"hits": {"hits": [');
      sent = streamUntilClosed(response, `{"_id": "doc", "_score": 1, "_source": {"text": "${'x'.repeat(200)}"}},`, 16 * 1024 * 1024);
    });
    engine = buildEngine({
      name: 'os',
      retries: 2,
      max_answer_bytes: 65_536,
      opensearch: { url: cluster.url, index: 'docs-v2', query: { query: { match_all: {} } } },
    });

    // Act
    const result = await engine.call({ query: 'rotate keys', request_id: 'q1' }, farDeadline());
    const streamed = await sent;
    await cluster.close();

    // Assess
    expect(result).toEqual({
      ok: false,
      error: {
        kind: 'permanent',
        message: `opensearch ${cluster.url} index docs-v2: the answer passed max_answer_bytes (65536 bytes), so reading stopped there (fix: ask for fewer or shorter hits, or raise max_answer_bytes)`,
      },
    });
    expect(streamed?.closedEarly).toBe(true);
    expect(streamed?.written).toBeLessThan(4 * 1024 * 1024);
    expect(cluster.requests()).toBe(1);
  });
});
