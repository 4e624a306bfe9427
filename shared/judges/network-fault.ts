import { networkCode } from '../engines/engine-failure.js';

/**
 * What went wrong on the wire when a judge call got no whole answer: a
 * refused or reset connection, a host that does not resolve, a server that
 * closed the connection in the middle of its answer (undici's `TypeError:
 * terminated`, caused by `SocketError: other side closed`). Told apart from
 * a bug by the system or undici code in the error's cause chain, never by
 * its class alone: a TypeError of our own code carries no such code.
 */
export interface NetworkFault {
  readonly code: string;
  /** What happened, for a person: `connection refused (ECONNREFUSED)`. */
  readonly description: string;
  /**
   * The server cannot be reached at all (nothing listens there, or its name
   * does not resolve), rather than a connection that broke on the way.
   */
  readonly unreachable: boolean;
}

const WHAT_HAPPENED: Readonly<Record<string, string>> = {
  ECONNREFUSED: 'connection refused',
  ENOTFOUND: 'the host name does not resolve',
  EAI_AGAIN: 'the host name could not be resolved for now',
  ECONNRESET: 'the connection was reset',
  ECONNABORTED: 'the connection was aborted',
  EPIPE: 'the connection closed while the request was being sent',
  ETIMEDOUT: 'the connection timed out',
  EHOSTUNREACH: 'no route to the host',
  ENETUNREACH: 'the network is unreachable',
  UND_ERR_CONNECT_TIMEOUT: 'the connection timed out',
  UND_ERR_HEADERS_TIMEOUT: 'the server sent no answer in time',
  UND_ERR_BODY_TIMEOUT: 'the server stopped sending its answer',
  UND_ERR_SOCKET: 'the server closed the connection before its answer was complete',
};

/** ENOTFOUND is a definite "no such name"; EAI_AGAIN is a resolver that may answer on the next try. */
const UNREACHABLE = new Set(['ECONNREFUSED', 'ENOTFOUND']);

/** The network fault behind `error` (or its causes), or undefined when it is not one. */
export function networkFault(error: unknown): NetworkFault | undefined {
  const code = networkCode(error);
  if (code === undefined) return undefined;
  const detail = socketDetail(error, code);
  const what = WHAT_HAPPENED[code] ?? 'the connection failed';
  return { code, description: `${what} (${detail === undefined ? code : `${code}: ${detail}`})`, unreachable: UNREACHABLE.has(code) };
}

/** undici's own words for a socket error ("other side closed"), which say more than its code. */
function socketDetail(error: unknown, code: string): string | undefined {
  if (code !== 'UND_ERR_SOCKET') return undefined;
  let current: unknown = error;
  for (let depth = 0; depth < 5 && typeof current === 'object' && current !== null; depth += 1) {
    const { code: own, message } = current as { code?: unknown; message?: unknown };
    if (own === code && typeof message === 'string' && message !== '') return message;
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
