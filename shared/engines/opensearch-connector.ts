import { Readable } from 'node:stream';
import { Client, errors, type ApiResponse } from '@opensearch-project/opensearch';
import { AwsSigv4Signer } from '@opensearch-project/opensearch/aws-v3';
import { z } from 'zod';
import { awsCredentials } from './aws-support.js';
import { declaredLength, ERROR_BODY_BYTES, readBoundedBody } from './bounded-body.js';
import type { OpensearchConnectorConfig } from './connector-configs.js';
import { templateValues, type ConnectorContext } from './connector-context.js';
import type { Connector, ConnectorResult, EngineRequest } from './engine.js';
import { bodyFailure, excerpt, isTransientStatus, permanent, tooLarge, transient } from './engine-failure.js';
import { networkFault } from '../network/network-fault.js';
import { describeHitProblem, hitFrom, hitSchema } from './engine-hit.js';
import { renderJson, renderText } from './engine-template.js';

/** The part of a `_search` answer the connector reads. */
const searchAnswerSchema = z.object({
  hits: z.object({
    hits: z.array(
      z.object({ _id: z.string().optional(), _score: z.number().nullish(), _source: z.record(z.string(), z.unknown()).optional() }),
    ),
  }),
});

/**
 * An OpenSearch (or Elasticsearch-compatible) index, queried with the
 * `_search` API and the configured query DSL. With `aws`, requests are
 * signed with SigV4 for OpenSearch Service (`es`) or Serverless (`aoss`)
 * through the client's own signer, credentials from the AWS chain. The
 * answer is taken as a stream and read up to `maxAnswerBytes`: the client
 * would otherwise gather a body of any size into one string.
 */
export function opensearchConnector(
  config: OpensearchConnectorConfig,
  context: ConnectorContext,
  timeoutMs: number,
  maxAnswerBytes: number,
): Connector {
  const client = new Client({
    node: config.url,
    // Retries belong to the engine, which knows the case's deadline.
    maxRetries: 0,
    requestTimeout: timeoutMs,
    ...(config.aws === undefined
      ? {}
      : AwsSigv4Signer({ region: config.aws.region, service: config.aws.service, getCredentials: awsCredentials(context.env) })),
  });
  const target = `opensearch ${config.url} index ${config.index}`;

  async function attempt(request: EngineRequest, signal: AbortSignal): Promise<ConnectorResult> {
    const values = templateValues(request, context);
    const headers = Object.fromEntries(Object.entries(config.headers).map(([name, value]) => [name, renderText(value, values)]));
    const call = client.search(
      { index: renderText(config.index, values), body: renderJson(config.query, values) as Record<string, unknown>, size: config.size },
      { headers, asStream: true },
    );
    const abort = () => call.abort();
    signal.addEventListener('abort', abort, { once: true });
    let answer: ApiResponse;
    try {
      answer = await call;
    } catch (error) {
      return failureOf(target, error);
    } finally {
      signal.removeEventListener('abort', abort);
    }
    return readAnswer(answer, signal);
  }

  async function readAnswer(answer: ApiResponse, signal: AbortSignal): Promise<ConnectorResult> {
    const body: unknown = answer.body;
    if (!(body instanceof Readable)) throw new Error('The OpenSearch client gave no stream for a request made with asStream');
    // The request is over for the client, so cancelling it no longer ends the body.
    const stop = () => body.destroy();
    signal.addEventListener('abort', stop, { once: true });
    try {
      const status = answer.statusCode ?? 0;
      if (status < 200 || status > 299) {
        const read = await readBoundedBody(body, ERROR_BODY_BYTES);
        if (read.kind === 'broken') return bodyFailure(target, read);
        const message = `${target} answered HTTP ${status}: ${excerpt(read.text)}`;
        return isTransientStatus(status) ? transient(message) : permanent(message);
      }
      const declared = declaredLength(answer.headers?.['content-length']);
      if (declared !== undefined && declared > maxAnswerBytes) {
        body.destroy();
        return tooLarge(target, maxAnswerBytes, declared);
      }
      const read = await readBoundedBody(body, maxAnswerBytes);
      if (read.kind === 'broken') return bodyFailure(target, read);
      if (read.kind === 'too-large') return tooLarge(target, maxAnswerBytes);
      return hitsOf(read.text);
    } finally {
      signal.removeEventListener('abort', stop);
    }
  }

  function hitsOf(text: string): ConnectorResult {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      return permanent(`${target}: the answer is not JSON`);
    }
    const answer = searchAnswerSchema.safeParse(json);
    if (!answer.success) return permanent(`${target}: the answer is not a _search result (no hits.hits list)`);
    const hits = z.array(hitSchema).safeParse(
      answer.data.hits.hits.map((hit) => ({
        doc_uri: config.id_field === '_id' ? hit._id : fieldAt(hit._source, config.id_field),
        content: config.content_field === undefined ? undefined : fieldAt(hit._source, config.content_field),
        score: hit._score,
      })),
    );
    if (!hits.success)
      return permanent(
        `${target}: hits do not give id_field "${config.id_field}"${config.content_field === undefined ? '' : ` and content_field "${config.content_field}"`}: ${describeHitProblem(hits.error)}`,
      );
    return { ok: true, value: { hits: hits.data.map(hitFrom) } };
  }

  return { attempt, close: () => client.close() };
}

/** A field of `_source`, by a dotted path for nested objects (`meta.url`). */
function fieldAt(source: Record<string, unknown> | undefined, path: string): unknown {
  if (source === undefined) return undefined;
  if (path in source) return source[path];
  return path
    .split('.')
    .reduce<unknown>(
      (value, key) => (typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined),
      source,
    );
}

/** A request that got no answer: the client's connection errors and network faults are transient. */
function failureOf(target: string, error: unknown): ConnectorResult {
  const fault = networkFault(error)?.description;
  if (fault !== undefined) return transient(`${target}: ${fault}`);
  if (
    error instanceof errors.TimeoutError ||
    error instanceof errors.ConnectionError ||
    error instanceof errors.NoLivingConnectionsError ||
    error instanceof errors.RequestAbortedError
  ) {
    return transient(`${target}: ${error.name}: ${error.message}`);
  }
  return permanent(`${target}: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`);
}
