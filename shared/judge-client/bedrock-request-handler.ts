import { NodeHttp2Handler, NodeHttpHandler } from '@smithy/node-http-handler';
import type { BedrockHttpVersion } from './bedrock-http-version.js';

/**
 * The SDK's request handler that speaks `version`, each attempt bounded by
 * `requestTimeoutMs` when given. HTTP/2 is what the SDK builds for these
 * services itself: one session a request. For HTTP/1.1 the SDK's default
 * pool of 50 sockets a host would queue requests the caller's own
 * concurrency already bounds (an attempt's timeout running in the queue),
 * and its request timeout would only log a warning unless told to throw.
 */
export function bedrockRequestHandler(version: BedrockHttpVersion, requestTimeoutMs?: number): NodeHttpHandler | NodeHttp2Handler {
  const timeout = requestTimeoutMs === undefined ? {} : { requestTimeout: requestTimeoutMs };
  if (version === '2') return new NodeHttp2Handler({ ...timeout, disableConcurrentStreams: true });
  const unpooled = { keepAlive: true, maxSockets: Infinity };
  return new NodeHttpHandler({ ...timeout, throwOnRequestTimeout: true, httpAgent: unpooled, httpsAgent: unpooled });
}
