import { Client, errors } from '@opensearch-project/opensearch';
import { AwsSigv4Signer } from '@opensearch-project/opensearch/aws-v3';
import { z } from 'zod';
import { describeHitProblem, hitFrom, hitSchema } from './engine-hit.js';
import { awsCredentials } from './aws-support.js';
import type { OpensearchConnectorConfig } from './connector-configs.js';
import { templateValues, type ConnectorContext } from './connector-context.js';
import type { Connector, ConnectorResult, EngineRequest } from './engine.js';
import { excerpt, isTransientStatus, networkCode, permanent, transient } from './engine-failure.js';
import { renderJson, renderText } from './engine-template.js';

/** The part of a `_search` answer the connector reads. */
const searchAnswerSchema = z.object({
  hits: z.object({
    hits: z.array(z.object({ _id: z.string().optional(), _score: z.number().nullish(), _source: z.record(z.string(), z.unknown()).optional() })),
  }),
});

/**
 * An OpenSearch (or Elasticsearch-compatible) index, queried with the
 * `_search` API and the configured query DSL. With `aws`, requests are
 * signed with SigV4 for OpenSearch Service (`es`) or Serverless (`aoss`)
 * through the client's own signer, credentials from the AWS chain.
 */
export function opensearchConnector(config: OpensearchConnectorConfig, context: ConnectorContext, timeoutMs: number): Connector {
  const client = new Client({
    node: config.url,
    // Retries belong to the engine, which knows the case's deadline.
    maxRetries: 0,
    requestTimeout: timeoutMs,
    ...(config.aws === undefined ? {} : AwsSigv4Signer({ region: config.aws.region, service: config.aws.service, getCredentials: awsCredentials(context.env) })),
  });
  const target = `opensearch ${config.url} index ${config.index}`;

  async function attempt(request: EngineRequest, signal: AbortSignal): Promise<ConnectorResult> {
    const values = templateValues(request, context);
    const headers = Object.fromEntries(Object.entries(config.headers).map(([name, value]) => [name, renderText(value, values)]));
    const call = client.search({ index: renderText(config.index, values), body: renderJson(config.query, values) as Record<string, unknown>, size: config.size }, { headers });
    const abort = () => call.abort();
    signal.addEventListener('abort', abort, { once: true });
    let body: unknown;
    try {
      body = (await call).body;
    } catch (error) {
      return failureOf(target, error);
    } finally {
      signal.removeEventListener('abort', abort);
    }
    const answer = searchAnswerSchema.safeParse(body);
    if (!answer.success) return permanent(`${target}: the answer is not a _search result (no hits.hits list)`);
    const hits = z.array(hitSchema).safeParse(answer.data.hits.hits.map((hit) => ({
      doc_uri: config.id_field === '_id' ? hit._id : fieldAt(hit._source, config.id_field),
      content: config.content_field === undefined ? undefined : fieldAt(hit._source, config.content_field),
      score: hit._score,
    })));
    if (!hits.success) return permanent(`${target}: hits do not give id_field "${config.id_field}"${config.content_field === undefined ? '' : ` and content_field "${config.content_field}"`}: ${describeHitProblem(hits.error)}`);
    return { ok: true, hits: hits.data.map(hitFrom) };
  }

  return { attempt, close: () => client.close() };
}

/** A field of `_source`, by a dotted path for nested objects (`meta.url`). */
function fieldAt(source: Record<string, unknown> | undefined, path: string): unknown {
  if (source === undefined) return undefined;
  if (path in source) return source[path];
  return path.split('.').reduce<unknown>((value, key) => (typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined), source);
}

function failureOf(target: string, error: unknown): ConnectorResult {
  if (error instanceof errors.ResponseError) {
    const status = error.meta.statusCode ?? 0;
    const detail = typeof error.meta.body === 'string' ? error.meta.body : JSON.stringify(error.meta.body ?? '');
    const message = `${target} answered HTTP ${status}: ${excerpt(detail)}`;
    return isTransientStatus(status) ? transient(message) : permanent(message);
  }
  if (error instanceof errors.TimeoutError || error instanceof errors.ConnectionError || error instanceof errors.NoLivingConnectionsError || error instanceof errors.RequestAbortedError) {
    const code = networkCode(error);
    return transient(`${target}: ${code === undefined ? error.name : `connection failed (${code})`}`);
  }
  if (error instanceof errors.DeserializationError) return permanent(`${target}: the answer is not JSON`);
  const code = networkCode(error);
  if (code !== undefined) return transient(`${target}: connection failed (${code})`);
  return permanent(`${target}: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`);
}
