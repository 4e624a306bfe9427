/**
 * What went wrong on the wire when a call to a judge server or an engine got
 * no whole answer: a refused or reset connection, a host that does not
 * resolve, a server that closed the connection in the middle of its answer
 * (undici's `TypeError: terminated`, caused by `SocketError: other side
 * closed`). Told apart from a bug by the system, undici or HTTP/2 code in the
 * error's cause chain, never by its class alone: a TypeError of our own code
 * carries no such code.
 */
export interface NetworkFault {
  readonly code: string;
  /** What happened, for a person: `the connection was refused (ECONNREFUSED)`. */
  readonly description: string;
  /** The server cannot be reached at all (nothing listens there, or its name does not resolve), rather than a connection that broke on the way. */
  readonly unreachable: boolean;
}

/** OpenSSL's and Node's codes for a certificate the client does not trust. */
const CERTIFICATE_NOT_TRUSTED = [
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_HAS_EXPIRED',
  'ERR_TLS_CERT_ALTNAME_INVALID',
];

/** The network faults worth another try, by their code (Node's, undici's, HTTP/2's), with what each means. */
const NETWORK_FAULTS: Readonly<Record<string, string>> = {
  ECONNREFUSED: 'the connection was refused',
  ECONNRESET: 'the connection was reset',
  ECONNABORTED: 'the connection was aborted',
  EPIPE: 'the connection was closed while the request was sent',
  ETIMEDOUT: 'the connection timed out',
  EAI_AGAIN: 'the host name could not be resolved for now',
  ENOTFOUND: 'the host name did not resolve',
  EHOSTUNREACH: 'the host is unreachable',
  ENETUNREACH: 'the network is unreachable',
  UND_ERR_CONNECT_TIMEOUT: 'no connection opened in time, as when a firewall drops the packets to the port or no host has that address',
  UND_ERR_SOCKET: 'the server closed the connection',
  UND_ERR_HEADERS_TIMEOUT: 'the answer did not start in time',
  UND_ERR_BODY_TIMEOUT: 'the answer stalled',
  ERR_STREAM_PREMATURE_CLOSE: 'the answer ended early',
  ERR_HTTP2_STREAM_ERROR: 'the HTTP/2 stream was reset',
  ERR_HTTP2_SESSION_ERROR: 'the HTTP/2 session failed',
  ERR_HTTP2_GOAWAY_SESSION: 'the server ended the HTTP/2 session',
  ERR_HTTP2_STREAM_CANCEL: 'the HTTP/2 stream was cancelled',
  EPROTO: 'the TLS handshake failed, as when an https:// address names a server that speaks plain HTTP',
  ...Object.fromEntries(
    CERTIFICATE_NOT_TRUSTED.map((code) => [
      code,
      "the server's TLS certificate is not trusted: a self-signed or private CA's certificate needs that CA in NODE_EXTRA_CA_CERTS, an expired one renewing, one for another name the address it names",
    ]),
  ),
};

/**
 * ENOTFOUND is a definite "no such name"; EAI_AGAIN is a resolver that may
 * answer on the next try. A connection that did not open within the connect
 * timeout (10 s) got no answer at all, where a refused one got a no. A TLS
 * handshake that failed (https:// to a plain HTTP server) or a certificate
 * not trusted fails the same way every time.
 */
const UNREACHABLE = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'UND_ERR_CONNECT_TIMEOUT',
  // TLS that cannot succeed as set up: another try meets the same server with the same certificate.
  'EPROTO',
  ...CERTIFICATE_NOT_TRUSTED,
]);

/** The network fault behind `error` (or its causes), or undefined when it is not one. */
export function networkFault(error: unknown): NetworkFault | undefined {
  // A cancelled HTTP/2 stream is caused by its session's fault: a refused connection below it is the news.
  const code =
    codeIn(error, (candidate) => UNREACHABLE.has(candidate)) ?? codeIn(error, (candidate) => Object.hasOwn(NETWORK_FAULTS, candidate));
  if (code === undefined) return undefined;
  return { code, description: `${NETWORK_FAULTS[code]} (${code})`, unreachable: UNREACHABLE.has(code) };
}

/** The first string `code` of an error or of its cause chain that `accept` takes. */
export function codeIn(error: unknown, accept: (code: string) => boolean): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && typeof current === 'object' && current !== null; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && accept(code)) return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** The innermost cause of `error` in its own words, with its code: what a fetch failure that is no network fault (a malformed answer) says. */
export function innermostCause(error: unknown): string | undefined {
  let current: unknown = error;
  let found: string | undefined;
  for (let depth = 0; depth < 5 && current instanceof Error; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (depth > 0) found = typeof code === 'string' ? `${current.message} (${code})` : current.message;
    current = current.cause;
  }
  return found;
}
