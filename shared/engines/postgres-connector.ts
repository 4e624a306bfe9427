import pg from 'pg';
import { z } from 'zod';
import { describeHitProblem, hitFrom, hitSchema } from './engine-hit.js';
import type { PostgresConnectorConfig } from './connector-configs.js';
import type { ConnectorContext } from './connector-context.js';
import type { Connector, ConnectorResult, EngineRequest } from './engine.js';
import { permanent, transient } from './engine-failure.js';
import { networkFault } from '../network/network-fault.js';

/**
 * A search written in SQL (full text, pgvector, hybrid): `$1` is the query
 * text, `$2`, `$3`... the variables listed in `params`, and the statement
 * returns doc_uri, content and score, best first. The connection string is
 * read from the environment variable `connection_env`; a small pool lives as
 * long as the engine.
 */
export function postgresConnector(config: PostgresConnectorConfig, context: ConnectorContext, timeoutMs: number): Connector {
  const connectionString = context.env[config.connection_env];
  if (connectionString === undefined) throw new Error(`Env ${config.connection_env} was not checked before creating the engine`);
  const pool = new pg.Pool({
    connectionString,
    max: 4,
    connectionTimeoutMillis: timeoutMs,
    query_timeout: timeoutMs,
    idleTimeoutMillis: 10_000,
  });
  // A dropped idle connection is reported by the next query; unhandled, it would end the process.
  pool.on('error', () => undefined);
  const target = `postgres (connection from $${config.connection_env})`;

  async function attempt(request: EngineRequest): Promise<ConnectorResult> {
    const values = [request.query, ...config.params.map((name) => (name === 'request_id' ? request.request_id : context.variables[name]))];
    let rows: unknown[];
    try {
      rows = (await pool.query({ text: config.sql, values })).rows;
    } catch (error) {
      return failureOf(target, error);
    }
    const hits = z.array(hitSchema).safeParse(rows);
    if (!hits.success)
      return permanent(`${target}: the SQL must return columns doc_uri, content and score: ${describeHitProblem(hits.error)}`);
    return { ok: true, value: { hits: hits.data.map(hitFrom) } };
  }

  return { attempt, close: () => pool.end() };
}

/** SQLSTATE classes worth another try: connection faults, resources, shutdown, serialization, deadlock, cancel. */
const TRANSIENT_SQLSTATE = /^(08|53|57P0[123]|40001|40P01|57014)/;
const TRANSIENT_DRIVER_MESSAGE = /Connection terminated|timeout exceeded when trying to connect|Query read timeout/i;

function failureOf(target: string, error: unknown): ConnectorResult {
  const fault = networkFault(error)?.description;
  if (fault !== undefined) return transient(`${target}: ${fault}`);
  const sqlState = (error as { code?: unknown }).code;
  const message = error instanceof Error ? error.message : String(error);
  if (typeof sqlState === 'string' && /^[0-9A-Z]{5}$/.test(sqlState)) {
    const text = `${target}: ${message} (SQLSTATE ${sqlState})`;
    return TRANSIENT_SQLSTATE.test(sqlState) ? transient(text) : permanent(text);
  }
  return TRANSIENT_DRIVER_MESSAGE.test(message) ? transient(`${target}: ${message}`) : permanent(`${target}: ${message}`);
}
