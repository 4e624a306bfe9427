import type { RetrievedChunk } from '../schema/eval-case.js';
import type { Result } from '../schema/result.js';

/**
 * The port every system under test sits behind. A connector (http,
 * opensearch, bedrock_kb, lambda, postgres, trec) turns one query into a
 * ranked list of hits and maybe a generated answer; the engine around it adds
 * the per-attempt timeout, retries with backoff and the latency measurement.
 */

/** What an engine is asked: the case's query text and its id (some services log or route by it). */
export interface EngineRequest {
  readonly query: string;
  readonly request_id: string;
}

/** One retrieved document, in the engine's order. */
export interface EngineHit {
  readonly doc_uri: string;
  readonly content?: string;
  readonly score?: number;
}

export interface EngineAnswer {
  readonly hits: readonly EngineHit[];
  readonly response?: string;
  /** Wall time of the successful attempt, in milliseconds. */
  readonly latency_ms: number;
  /** Attempts the call made, the failed ones before the successful one included. */
  readonly attempts: number;
}

/**
 * Why an engine gave no answer. `transient`: worth asking again later (a
 * timeout, a refused or reset connection, 429, 5xx, AWS throttling);
 * `permanent`: asking again gives the same failure (another 4xx, an answer
 * that does not map to hits, a bad SQL statement). The message names the
 * engine's target as configured, never a header, an env value or a password.
 */
export interface EngineFailure {
  readonly kind: 'transient' | 'permanent';
  readonly message: string;
  /** How long the service asked to wait (Retry-After), when it said so. */
  readonly retry_after_ms?: number;
}

export type EngineResult = Result<EngineAnswer, EngineFailure>;

export interface Engine {
  /** Unique in a config; a matrix variant is named `<name>@<variable>=<value>,...`. */
  readonly name: string;
  /** Asks once, with retries for transient failures, until `signal` aborts. Never throws for an expected failure. */
  call(request: EngineRequest, signal: AbortSignal): Promise<EngineResult>;
  /** Releases pooled connections (postgres); a no-op for the others. */
  close(): Promise<void>;
}

/** What one attempt of a connector answers, before latency and retries are added. */
export interface ConnectorAnswer {
  readonly hits: readonly EngineHit[];
  readonly response?: string;
}

export type ConnectorResult = Result<ConnectorAnswer, EngineFailure>;

/** One connector instance, built once per engine variant: its clients and pools live as long as it does. */
export interface Connector {
  attempt(request: EngineRequest, signal: AbortSignal): Promise<ConnectorResult>;
  close(): Promise<void>;
}

/** An engine's ranked list as a dataset row would carry it: ranks 1..n in the engine's order. */
export function rankedContext(hits: readonly EngineHit[]): RetrievedChunk[] {
  return hits.map((hit, index) => ({
    doc_uri: hit.doc_uri,
    ...(hit.content === undefined ? {} : { content: hit.content }),
    ...(hit.score === undefined ? {} : { score: hit.score }),
    rank: index + 1,
  }));
}
