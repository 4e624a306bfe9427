import type { IncomingMessage, ServerResponse } from 'node:http';
import { invalid, type Reply } from './api-reply.js';
import { routeBatchApi, type RouteContext } from './batch-routes.js';
import type { FaultedRequest } from './http-faults.js';
import { requestKey } from './provider-text.js';
import { routeNameOf } from './route-names.js';

/**
 * The HTTP side of the test batch server: which API a path is under
 * (OpenAI's `/v1`, Azure's `/openai/v1`, Azure's dated `/openai` with an
 * api-version), that API's key and its words for a refusal and an unknown
 * path, and a reply sent.
 */
export interface ApiKeys {
  /** Checked as `Authorization: Bearer` on `/v1` when set. */
  readonly apiKey?: string | undefined;
  /** Checked as `api-key` on `/openai/...` when set. */
  readonly azureKey?: string | undefined;
}

/** Which API the path is under (OpenAI's, Azure's v1 or its dated one), that API's key checked, then an HTTP fault or the route. */
export function replyTo(
  incoming: IncomingMessage,
  url: URL,
  body: Buffer,
  keys: ApiKeys,
  routes: RouteContext,
  httpFault: (request: FaultedRequest) => Reply | undefined,
): Reply {
  const method = incoming.method ?? 'GET';
  const openAi = /^\/v1(\/.*)$/.exec(url.pathname) ?? undefined;
  const azureV1 = /^\/openai\/v1(\/.*)$/.exec(url.pathname) ?? undefined;
  const azureDated = azureV1 === undefined ? (/^\/openai(\/(?:files|batches)(?:\/.*)?)$/.exec(url.pathname) ?? undefined) : undefined;
  const resource = openAi?.[1] ?? azureV1?.[1] ?? azureDated?.[1];
  const azure = openAi === undefined;
  const notFound = azure
    ? { status: 404, body: { error: { code: '404', message: 'Resource not found' } } }
    : invalid(404, `Invalid URL (${method} ${url.pathname})`, null, null);
  if (resource === undefined) return notFound;
  // The dated API answers a request without its api-version as an unknown route.
  if (azureDated !== undefined && !url.searchParams.has('api-version')) return notFound;
  const refused = azure ? azureKeyRefusal(incoming, keys.azureKey, azureV1 !== undefined) : openAiKeyRefusal(incoming, keys.apiKey);
  if (refused !== undefined) return refused;
  const apiKey = requestKey(incoming.headers);
  const route = routeNameOf(method, resource);
  const faulted = route === undefined ? undefined : httpFault({ method, route, azure, apiKey });
  if (faulted !== undefined && faulted.cutAfterWork !== true) return faulted;
  const request = { method, resource, query: url.searchParams, body, contentType: incoming.headers['content-type'], azure, apiKey };
  const reply = routeBatchApi(request, routes) ?? notFound;
  return faulted === undefined ? reply : { status: 0, body: {}, cut: true };
}

function openAiKeyRefusal(incoming: IncomingMessage, apiKey: string | undefined): Reply | undefined {
  if (apiKey === undefined || incoming.headers.authorization === `Bearer ${apiKey}`) return undefined;
  const message =
    incoming.headers.authorization === undefined
      ? "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth."
      : 'Incorrect API key provided.';
  return invalid(401, message, null, 'invalid_api_key');
}

/** Azure takes its key in `api-key`; the v1 API also as a Bearer token. */
function azureKeyRefusal(incoming: IncomingMessage, azureKey: string | undefined, v1: boolean): Reply | undefined {
  if (azureKey === undefined || incoming.headers['api-key'] === azureKey) return undefined;
  if (v1 && incoming.headers.authorization === `Bearer ${azureKey}`) return undefined;
  const message =
    'Access denied due to invalid subscription key or wrong API endpoint. Make sure to provide a valid key for an active subscription and use a correct regional API endpoint for your resource.';
  return { status: 401, body: { error: { code: '401', message } } };
}

export function send(response: ServerResponse, reply: Reply): void {
  if (reply.hang === true) return;
  if (reply.cut === true) {
    response.destroy();
    return;
  }
  const { body } = reply;
  // A file's content goes as bytes, as the API sends it; everything else is JSON.
  response.writeHead(reply.status, {
    'content-type': Buffer.isBuffer(body) ? 'application/octet-stream' : 'application/json',
    ...reply.headers,
  });
  response.end(Buffer.isBuffer(body) ? body : JSON.stringify(body));
}

export function headersOf(incoming: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(incoming.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}
