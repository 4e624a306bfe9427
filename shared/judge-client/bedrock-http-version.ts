import { codeIn } from '../network/network-fault.js';

/**
 * Which HTTP the Bedrock clients speak (the judges' Converse client, and the
 * bedrock_kb engine's). The AWS SDK's own handler for these services speaks
 * HTTP/2 only: over TLS it offers nothing else (ALPN `h2`), and to an
 * http:// endpoint it sends HTTP/2 frames with no upgrade (cleartext h2c).
 * Amazon's endpoints speak HTTP/2, but the servers put behind an http://
 * endpoint (a proxy, a gateway, LocalStack) mostly speak HTTP/1.1, and answer
 * those frames with an error that names no protocol ("Protocol error"). So:
 * HTTP/1.1 to an http:// endpoint, the SDK's HTTP/2 to https:// and to the
 * region's own endpoint, unless a setting chooses. The SDK's handlers
 * themselves are in bedrock-request-handler.ts, so that the config schema,
 * which takes the versions from here, loads no AWS SDK code.
 */

export const BEDROCK_HTTP_VERSIONS = ['1.1', '2'] as const;
export type BedrockHttpVersion = (typeof BEDROCK_HTTP_VERSIONS)[number];

/** The version spoken to `endpoint` (undefined: the region's own): the one `chosen`, else by the endpoint's scheme. */
export function bedrockHttpVersion(endpoint: string | undefined, chosen: BedrockHttpVersion | undefined): BedrockHttpVersion {
  if (chosen !== undefined) return chosen;
  return endpoint !== undefined && new URL(endpoint).protocol === 'http:' ? '1.1' : '2';
}

/** A server that does not speak the HTTP the client spoke, as the client saw it. */
export interface HttpMismatch {
  /** The version the client spoke and the server did not. */
  readonly spoken: BedrockHttpVersion;
  /** What the client saw, for a message: `Protocol error, ERR_HTTP2_ERROR`. */
  readonly seen: string;
}

/**
 * Whether `error`, the failure of a request spoken in `spoken`, says the
 * server speaks the other version: HTTP/2 frames answered by something that
 * is no HTTP/2 (nghttp2's "Protocol error", ERR_HTTP2_ERROR), a TLS server
 * that offers no HTTP/2 (the "no application protocol" alert, under the
 * SDK's ERR_HTTP2_STREAM_CANCEL), or an HTTP/1.1 request answered by bytes
 * that are no HTTP/1.x answer (llhttp's "Parse Error", an HPE_ code). An
 * HTTP/1.1 server that breaks down mid-answer can give these too: the caller
 * takes them as a mismatch only before the server has ever answered.
 */
export function httpMismatch(error: unknown, spoken: BedrockHttpVersion): HttpMismatch | undefined {
  if (spoken === '2') {
    const alpn = codeIn(error, (code) => code === 'ERR_SSL_TLSV1_ALERT_NO_APPLICATION_PROTOCOL');
    if (alpn !== undefined) return { spoken, seen: `the TLS server offers no h2 in ALPN, ${alpn}` };
    return seenAs(error, spoken, (code) => code === 'ERR_HTTP2_ERROR');
  }
  return seenAs(error, spoken, (code) => code.startsWith('HPE_'));
}

/** The error of the cause chain whose code `accept` takes, in its own words with its code. */
function seenAs(error: unknown, spoken: BedrockHttpVersion, accept: (code: string) => boolean): HttpMismatch | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && accept(code)) return { spoken, seen: `${current.message.split('\n')[0]}, ${code}` };
    current = current.cause;
  }
  return undefined;
}
