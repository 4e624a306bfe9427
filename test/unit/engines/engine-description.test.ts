import { describe, expect, it } from 'vitest';
import { describeEngine, maskUrl } from '../../../shared/engines/engine-description.js';
import { expandMatrix } from '../../../shared/engines/engine-matrix.js';
import { engineConfig } from '../../support/engine-configs.js';

describe('engine descriptions for `assay engines`', () => {
  it.each([
    ['a password in the URL', 'https://user:pa55word@search.example.com/s', 'https://user:***@search.example.com/s'],
    [
      'key-like query parameters',
      'https://search.example.com/s?api_key=abc123&q={{query}}&token=t0k',
      'https://search.example.com/s?api_key=***&q={{query}}&token=***',
    ],
    [
      'a placeholder where a key goes',
      'https://search.example.com/s?key={{env.SEARCH_KEY}}',
      'https://search.example.com/s?key={{env.SEARCH_KEY}}',
    ],
    ['a URL whose host is a placeholder', '{{env.HOST}}/s?secret=abc&q=x', '{{env.HOST}}/s?secret=***&q=x'],
    ['a URL without secrets', 'http://127.0.0.1:8700/search', 'http://127.0.0.1:8700/search'],
  ])('masks %s', (_, url, masked) => {
    expect(maskUrl(url)).toBe(masked);
  });

  it.each<[string, Record<string, unknown>, Record<string, string | undefined>, string]>([
    ['http', { http: { url: 'http://127.0.0.1:8700/search', method: 'GET', results: 'hits' } }, {}, 'GET http://127.0.0.1:8700/search'],
    [
      'opensearch',
      { opensearch: { url: 'https://search.example.com', index: 'docs', query: {}, aws: { region: 'us-east-1', service: 'aoss' } } },
      {},
      'https://search.example.com index docs (SigV4, aoss, us-east-1)',
    ],
    ['bedrock_kb', { bedrock_kb: { knowledge_base_id: 'KB12345678', region: 'us-east-1' } }, {}, 'knowledge base KB12345678 (us-east-1)'],
    ['lambda', { lambda: { function_name: 'search:live', region: 'eu-west-1', results: 'hits' } }, {}, 'function search:live (eu-west-1)'],
    [
      'postgres',
      { postgres: { connection_env: 'DB_URL', sql: 'SELECT 1 WHERE $1 = $1' } },
      { DB_URL: 'postgres://search:hunter2@db.internal:5432/docs' },
      '$DB_URL = postgres://search:***@db.internal:5432/docs',
    ],
    ['postgres', { postgres: { connection_env: 'DB_URL', sql: 'SELECT 1 WHERE $1 = $1' } }, {}, '$DB_URL (not set)'],
    ['trec', { trec: { path: 'runs/bm25.txt', tag: 'bm25' } }, {}, 'run file runs/bm25.txt tag bm25'],
  ])('describes a %s engine without secrets', (connector, connectorBlock, env, target) => {
    // Prepare
    const [variant] = expandMatrix(engineConfig({ name: 'e', ...connectorBlock }));

    // Act
    const description = variant === undefined ? undefined : describeEngine(variant, env);

    // Assess
    expect(description).toEqual({ name: 'e', connector, target });
  });
});
