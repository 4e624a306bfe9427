import { checkedExpression, mapAnswer } from './answer-mapping.js';
import type { HttpConnectorConfig } from './connector-configs.js';
import { templateValues, type ConnectorContext } from './connector-context.js';
import type { Connector, ConnectorResult, EngineRequest } from './engine.js';
import { excerpt, isTransientStatus, networkCode, permanent, retryAfterMs, transient } from './engine-failure.js';
import { renderJson, renderText, renderUrl } from './engine-template.js';
import { fetchWithinOrigin } from './same-origin-fetch.js';

/** Without a body, a POST sends the query and its id. */
const DEFAULT_BODY = { query: '{{query}}', request_id: '{{request_id}}' };

/**
 * Any JSON search service: renders the URL, headers and body, sends them
 * with fetch, and maps the JSON answer with the `results` and `response`
 * JMESPath expressions. Messages name the URL as configured (its templates
 * unrendered), so a key passed as `{{env.NAME}}` never shows.
 */
export function httpConnector(config: HttpConnectorConfig, context: ConnectorContext): Connector {
  const results = checkedExpression(config.results);
  const response = config.response === undefined ? undefined : checkedExpression(config.response);
  const target = `${config.method} ${config.url}`;

  async function attempt(request: EngineRequest, signal: AbortSignal): Promise<ConnectorResult> {
    const values = templateValues(request, context);
    const headers: Record<string, string> = { accept: 'application/json' };
    if (config.method === 'POST') headers['content-type'] = 'application/json';
    for (const [name, value] of Object.entries(config.headers)) headers[name.toLowerCase()] = renderText(value, values);
    const body = config.method === 'POST' ? JSON.stringify(renderJson(config.body ?? DEFAULT_BODY, values)) : undefined;
    let status: number;
    let text: string;
    let retryAfter: string | null;
    try {
      const sent = await fetchWithinOrigin(renderUrl(config.url, values), { method: config.method, headers, body, signal });
      if (!sent.ok) return permanent(`${target}: ${sent.refusal}`);
      const answer = sent.response;
      status = answer.status;
      retryAfter = answer.headers.get('retry-after');
      text = await answer.text();
    } catch (error) {
      const code = networkCode(error);
      if (code !== undefined) return transient(`${target}: connection failed (${code})`);
      const reason = error instanceof Error ? error.message : String(error);
      // "fetch failed" without a known code is still a network fault; anything else (a malformed URL) is not.
      return reason === 'fetch failed' ? transient(`${target}: connection failed`) : permanent(`${target}: cannot send the request: ${reason}`);
    }
    if (status < 200 || status > 299) {
      const message = `${target} answered HTTP ${status}${text.trim() === '' ? '' : `: ${excerpt(text)}`}`;
      return isTransientStatus(status) ? transient(message, retryAfterMs(retryAfter)) : permanent(message);
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      return permanent(`${target} answered HTTP ${status} with a body that is not JSON: ${excerpt(text) || '(empty)'}`);
    }
    const mapped = mapAnswer(json, results, response);
    return mapped.ok ? mapped : permanent(`${target}: ${mapped.failure.message}`);
  }

  return { attempt, close: async () => undefined };
}

