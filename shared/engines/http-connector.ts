import { checkedExpression, mapAnswer } from './answer-mapping.js';
import { declaredLength, ERROR_BODY_BYTES, readBoundedBody, type BodyRead } from './bounded-body.js';
import type { HttpConnectorConfig } from './connector-configs.js';
import { templateValues, type ConnectorContext } from './connector-context.js';
import type { Connector, ConnectorResult, EngineRequest } from './engine.js';
import { bodyFailure, excerpt, isTransientStatus, permanent, retryAfterMs, tooLarge, transient } from './engine-failure.js';
import { networkFault } from '../network/network-fault.js';
import { BAD_PORT_FIX, badPortProblem, refusedPortOf } from '../network/fetch-bad-ports.js';
import { renderJson, renderText, renderUrl } from './engine-template.js';
import { fetchWithinOrigin } from './same-origin-fetch.js';

/** Without a body, a POST sends the query and its id. */
const DEFAULT_BODY = { query: '{{query}}', request_id: '{{request_id}}' };

/**
 * Any JSON search service: renders the URL, headers and body, sends them
 * with fetch (following redirects within the origin only), reads the answer
 * up to `maxAnswerBytes`, and maps the JSON answer with the `results` and
 * `response` JMESPath expressions. Messages name the URL as configured (its
 * templates unrendered), so a key passed as `{{env.NAME}}` never shows.
 */
export function httpConnector(config: HttpConnectorConfig, context: ConnectorContext, maxAnswerBytes: number): Connector {
  const results = checkedExpression(config.results);
  const response = config.response === undefined ? undefined : checkedExpression(config.response);
  const target = `${config.method} ${config.url}`;

  async function attempt(request: EngineRequest, signal: AbortSignal): Promise<ConnectorResult> {
    const values = templateValues(request, context);
    const headers: Record<string, string> = { accept: 'application/json' };
    if (config.method === 'POST') headers['content-type'] = 'application/json';
    for (const [name, value] of Object.entries(config.headers)) headers[name.toLowerCase()] = renderText(value, values);
    const body = config.method === 'POST' ? JSON.stringify(renderJson(config.body ?? DEFAULT_BODY, values)) : undefined;
    let answer: Response;
    const url = renderUrl(config.url, values);
    try {
      const sent = await fetchWithinOrigin(url, { method: config.method, headers, body, signal });
      if (!sent.ok) return permanent(`${target}: ${sent.error}`);
      answer = sent.value;
    } catch (error) {
      return sendFailure(target, url, error);
    }
    const { status } = answer;
    if (status < 200 || status > 299) {
      const read = await readAnswer(answer, ERROR_BODY_BYTES);
      if (read.kind === 'broken') return bodyFailure(target, read);
      const message = `${target} answered HTTP ${status}${read.text.trim() === '' ? '' : `: ${excerpt(read.text)}`}`;
      return isTransientStatus(status) ? transient(message, retryAfterMs(answer.headers.get('retry-after'))) : permanent(message);
    }
    const declared = declaredLength(answer.headers.get('content-length'));
    if (declared !== undefined && declared > maxAnswerBytes) {
      await answer.body?.cancel();
      return tooLarge(target, maxAnswerBytes, declared);
    }
    const read = await readAnswer(answer, maxAnswerBytes);
    if (read.kind === 'broken') return bodyFailure(target, read);
    if (read.kind === 'too-large') return tooLarge(target, maxAnswerBytes);
    let json: unknown;
    try {
      json = JSON.parse(read.text);
    } catch {
      return permanent(`${target} answered HTTP ${status} with a body that is not JSON: ${excerpt(read.text) || '(empty)'}`);
    }
    const mapped = mapAnswer(json, results, response);
    return mapped.ok ? mapped : permanent(`${target}: ${mapped.error.message}`);
  }

  return { attempt, close: async () => undefined };
}

function readAnswer(answer: Response, limit: number): Promise<BodyRead> {
  return answer.body === null ? Promise.resolve({ kind: 'complete', text: '' }) : readBoundedBody(answer.body, limit);
}

/**
 * fetch rejected before an answer came: a network fault is transient; a
 * request that cannot be built (a malformed URL) is not, nor is one to a port
 * fetch refuses (a template put it there, so the config check could not see it).
 */
function sendFailure(target: string, url: string, error: unknown): ConnectorResult {
  const refused = refusedPortOf(error, url);
  if (refused !== undefined) return permanent(`${target}: the rendered URL ${badPortProblem(refused)}; ${BAD_PORT_FIX}`);
  const fault = networkFault(error)?.description;
  if (fault !== undefined) return transient(`${target}: ${fault}`);
  const reason = error instanceof Error ? error.message : String(error);
  // "fetch failed" without a known code is still a network fault; its cause says which.
  if (reason !== 'fetch failed') return permanent(`${target}: cannot send the request: ${reason}`);
  const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : '';
  return transient(`${target}: the connection failed${cause}`);
}
