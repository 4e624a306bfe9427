import type { PGlite } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite-pgvector';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createEngine } from '../../../shared/engines/create-engine.js';
import { expandMatrix } from '../../../shared/engines/engine-matrix.js';
import type { Engine, EngineResult } from '../../../shared/engines/engine.js';
import { buildEngine, buildEngines, engineConfig, farDeadline } from '../../support/engine-configs.js';
import { freshPglite } from '../../support/pglite.js';

/**
 * The postgres connector against a real Postgres (PGlite, compiled to
 * WebAssembly, with pgvector) served on 127.0.0.1 over the wire protocol, and
 * the real `pg` driver connecting to it.
 */

const PASSWORD = 'hunter2-not-for-logs';
const DOCUMENTS = [
  ['iam-rotate-keys', 'Rotate an access key by creating a second key, switching, then deleting the old key.', '[1, 0, 0]'],
  ['kms-key-rotation', 'KMS rotates the key material of a customer managed key every year.', '[0.8, 0.6, 0]'],
  ['sqs-long-polling', 'Long polling waits up to twenty seconds for messages.', '[0, 0, 1]'],
] as const;

let database: PGlite;
let server: PGLiteSocketServer;
let env: Record<string, string>;
let engines: Engine[] = [];

beforeAll(async () => {
  database = await freshPglite({ extensions: { vector } });
  await database.exec(`
    CREATE EXTENSION vector;
    CREATE TABLE documents (id text PRIMARY KEY, body text NOT NULL, embedding vector(3) NOT NULL);
    CREATE TABLE query_embeddings (query text PRIMARY KEY, embedding vector(3) NOT NULL);
  `);
  for (const [id, body, embedding] of DOCUMENTS) await database.query('INSERT INTO documents VALUES ($1, $2, $3)', [id, body, embedding]);
  await database.query('INSERT INTO query_embeddings VALUES ($1, $2)', ['rotate my key', '[0.9, 0.1, 0]']);
  server = new PGLiteSocketServer({ db: database, host: '127.0.0.1', port: 0, maxConnections: 8 });
  await server.start();
  env = { SEARCH_DATABASE_URL: `postgres://postgres:${PASSWORD}@${server.getServerConn()}/postgres?sslmode=disable` };
}, 120_000);

afterEach(async () => {
  await Promise.all(engines.map((engine) => engine.close()));
  engines = [];
});

afterAll(async () => {
  await server.stop();
  await database.close();
});

function track<T extends Engine | Engine[]>(built: T): T {
  engines.push(...(Array.isArray(built) ? built : [built]));
  return built;
}

const ask = (engine: Engine, query: string): Promise<EngineResult> => engine.call({ query, request_id: 'q1' }, farDeadline());

const FULL_TEXT_SQL = `
  SELECT id AS doc_uri, body AS content, ts_rank(to_tsvector('english', body), plainto_tsquery('english', $1)) AS score
  FROM documents
  WHERE to_tsvector('english', body) @@ plainto_tsquery('english', $1)
  ORDER BY score DESC, id
  LIMIT $2`;

describe('postgres connector against PGlite over the wire protocol', () => {
  it('runs a full-text query with a matrix variable as $2, one engine per value', async () => {
    // Prepare
    const sweep = track(
      buildEngines(
        { name: 'fts', matrix: { k: [1, 2] }, postgres: { connection_env: 'SEARCH_DATABASE_URL', sql: FULL_TEXT_SQL, params: ['k'] } },
        env,
      ),
    );

    // Act
    const results = await Promise.all(sweep.map((engine) => ask(engine, 'rotating keys')));

    // Assess
    expect(sweep.map((engine) => engine.name)).toEqual(['fts@k=1', 'fts@k=2']);
    const [top1, top2] = results.map((result) => (result.ok ? result.value.hits.map((hit) => hit.doc_uri) : result.error.message));
    expect(top1).toEqual(['iam-rotate-keys']);
    expect(top2).toEqual(['iam-rotate-keys', 'kms-key-rotation']);
    const first = results[0];
    expect(first?.ok && first.value.hits[0]?.content).toBe(DOCUMENTS[0][1]);
    expect(first?.ok && typeof first.value.hits[0]?.score).toBe('number');
  });

  it('runs a pgvector nearest-neighbour query over stored query embeddings', async () => {
    // Prepare
    const engine = track(
      buildEngine(
        {
          name: 'dense',
          postgres: {
            connection_env: 'SEARCH_DATABASE_URL',
            sql: `SELECT d.id AS doc_uri, d.body AS content, 1 - (d.embedding <=> q.embedding) AS score
                  FROM documents d, query_embeddings q
                  WHERE q.query = $1
                  ORDER BY d.embedding <=> q.embedding, d.id
                  LIMIT 3`,
          },
        },
        env,
      ),
    );

    // Act
    const result = await ask(engine, 'rotate my key');

    // Assess: cosine similarity of [0.9, 0.1, 0] with [1, 0, 0] is 0.9 / |(0.9, 0.1)| = 0.9939, with [0.8, 0.6, 0] it is 0.78 / 0.9055 = 0.8614, with [0, 0, 1] it is 0.
    expect(result.ok && result.value.hits.map((hit) => [hit.doc_uri, Number(hit.score?.toFixed(4))])).toEqual([
      ['iam-rotate-keys', 0.9939],
      ['kms-key-rotation', 0.8614],
      ['sqs-long-polling', 0],
    ]);
  });

  it('fails permanently on bad SQL, naming the SQLSTATE and never the password', async () => {
    // Prepare
    const engine = track(
      buildEngine(
        {
          name: 'typo',
          retries: 2,
          postgres: { connection_env: 'SEARCH_DATABASE_URL', sql: 'SELECT id AS doc_uri FROM documnets WHERE body = $1' },
        },
        env,
      ),
    );

    // Act
    const result = await ask(engine, 'keys');

    // Assess
    expect(result).toEqual({
      ok: false,
      error: {
        kind: 'permanent',
        message: 'postgres (connection from $SEARCH_DATABASE_URL): relation "documnets" does not exist (SQLSTATE 42P01)',
      },
    });
  });

  it('fails permanently when the statement does not return doc_uri', async () => {
    // Prepare
    const engine = track(
      buildEngine(
        { name: 'columns', postgres: { connection_env: 'SEARCH_DATABASE_URL', sql: "SELECT id, body FROM documents WHERE $1 <> ''" } },
        env,
      ),
    );

    // Act
    const result = await ask(engine, 'keys');

    // Assess
    expect(result).toEqual({
      ok: false,
      error: {
        kind: 'permanent',
        message:
          'postgres (connection from $SEARCH_DATABASE_URL): the SQL must return columns doc_uri, content and score: item 1: doc_uri: expected a non-empty text or a number',
      },
    });
  });

  it('treats a refused connection as transient, without the password in the message', async () => {
    // Prepare
    const closedPort = `postgres://postgres:${PASSWORD}@127.0.0.1:1/postgres`;
    const engine = track(
      buildEngine(
        { name: 'down', retries: 0, postgres: { connection_env: 'SEARCH_DATABASE_URL', sql: FULL_TEXT_SQL.replace('$2', '5') } },
        { SEARCH_DATABASE_URL: closedPort },
      ),
    );

    // Act
    const result = await ask(engine, 'keys');

    // Assess
    expect(result).toEqual({
      ok: false,
      error: { kind: 'transient', message: 'postgres (connection from $SEARCH_DATABASE_URL): the connection was refused (ECONNREFUSED)' },
    });
  });

  it('refuses to build an engine whose connection variable is not set, naming it', () => {
    // Prepare
    const [variant] = expandMatrix(
      engineConfig({ name: 'fts', postgres: { connection_env: 'MISSING_DATABASE_URL', sql: 'SELECT 1 WHERE $1 = $1' } }),
    );

    // Act
    const created = variant === undefined ? undefined : createEngine(variant, {});

    // Assess
    expect(created).toEqual({
      ok: false,
      error: 'engine "fts": the environment variable MISSING_DATABASE_URL is not set (fix: export MISSING_DATABASE_URL before running)',
    });
  });
});
