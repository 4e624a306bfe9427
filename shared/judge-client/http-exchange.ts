import { Agent as HttpAgent, request as httpRequest, type ClientRequest, type IncomingMessage, type RequestOptions } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { urlToHttpOptions } from 'node:url';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import { timeoutReason } from '../judge-answers/call-deadline.js';

/**
 * The judge client's HTTP: one request, and its answer read whole, over
 * node:http and node:https with the connections kept alive for the next
 * request. It stands in for Node's fetch, whose WHATWG layers (streams,
 * Request and Response objects, header lists) cost four times the CPU of
 * the request itself: 0.85 against 0.21 ms a request with 16 in flight on
 * the 2-core machine of docs/benchmarks.md, where a judgment's CPU is what
 * bounds a run against a fast judge.
 *
 * It fails as fetch fails, so the openai SDK (which retries any failed
 * fetch as a connection error, and a timeout as one when its text says so)
 * and classifyFailure read it the same way: an abort rejects with the
 * signal's reason (a per-attempt `AbortSignal.timeout` gives a
 * TimeoutError); a request that gets no answer rejects with `TypeError:
 * fetch failed` caused by the system's error (ECONNREFUSED, ENOTFOUND, a
 * TLS error); a body cut short rejects with `TypeError: terminated`. A
 * connection the server closed, before the answer or in the middle of it,
 * is caused by `other side closed` (UND_ERR_SOCKET), as fetch's undici
 * says it; node:http calls that a reset without a system call (`socket hang
 * up`, `aborted`), where a real reset carries its `read ECONNRESET`.
 *
 * Unlike fetch it follows no redirect (a 3xx is the answer, which the SDK
 * reports with its status): a judge's key is never sent on to another
 * address. It asks for no compression, and reads a gzip, deflate or br
 * answer all the same.
 */

export interface ExchangeRequest {
  readonly method: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string | undefined;
  /** Ends the exchange, at any point, with the signal's reason. */
  readonly signal: AbortSignal | undefined;
  /** Ends the exchange, at any point, with a TimeoutError as `AbortSignal.timeout` gives, once this long has passed. */
  readonly timeoutMs?: number;
  /** Told each time the request is sent again on another connection (below): the server may have seen it. */
  readonly onResend?: () => void;
  /** How long a new connection may take to open; CONNECT_TIMEOUT_MS unless given. */
  readonly connectTimeoutMs?: number;
}

/**
 * How long a new connection may take to open, as Node's fetch (undici)
 * allows by default. A connection still opening after it got no answer at
 * all: a firewall that drops the packets to the port, or no host at that
 * address. Without this limit the system would try for about two minutes,
 * and each attempt would wait out judge.timeout_ms instead.
 */
export const CONNECT_TIMEOUT_MS = 10_000;

/** An answer's status line and headers, and its body to read. */
export interface AnswerHead {
  readonly status: number;
  readonly statusText: string;
  /** Name and value pairs, in the order they came. */
  readonly headers: readonly [string, string][];
  /** The whole body, decoded; rejects as fetch's body does when the connection breaks or the signal aborts. */
  readonly body: () => Promise<Buffer>;
}

/** One agent a scheme for the process: its idle connections are kept for the next request (and never keep the process alive). */
const agents = { 'http:': new HttpAgent({ keepAlive: true }), 'https:': new HttpsAgent({ keepAlive: true }) };

/** Where a request goes, as node:http takes it: read once a URL, since a client sends every request to one or two. */
interface Target {
  readonly send: typeof httpRequest;
  readonly options: RequestOptions;
}

const targets = new Map<string, Target>();
const MOST_TARGETS_KEPT = 64;

function targetOf(url: string): Target {
  let target = targets.get(url);
  if (target === undefined) {
    const parsed = new URL(url);
    const send = parsed.protocol === 'https:' ? httpsRequest : parsed.protocol === 'http:' ? httpRequest : undefined;
    if (send === undefined) throw new TypeError('fetch failed', { cause: new Error(`unknown scheme ${parsed.protocol}`) });
    target = { send, options: { ...urlToHttpOptions(parsed), agent: agents[parsed.protocol as keyof typeof agents] } };
    if (targets.size >= MOST_TARGETS_KEPT) targets.clear();
    targets.set(url, target);
  }
  return target;
}

/** Sends the request; resolves once the answer's head has come. */
export async function exchange(url: string | URL, request: ExchangeRequest): Promise<AnswerHead> {
  const { send, options } = targetOf(String(url));
  const headers: Record<string, string | number> = { ...request.headers };
  if (request.body !== undefined) headers['content-length'] = Buffer.byteLength(request.body);
  // The caller's signal and the attempt's timeout, let go as soon as the body is read (or fails).
  const stop = new Stop(request.signal, request.timeoutMs);
  const connectTimeoutMs = request.connectTimeoutMs ?? CONNECT_TIMEOUT_MS;
  try {
    for (;;) {
      try {
        const head = await sendOnce(send, { ...options, method: request.method, headers }, request.body, stop, connectTimeoutMs);
        head.body().then(stop.end, stop.end);
        return head;
      } catch (error) {
        // A kept connection the server had closed while it idled, which this process had not read yet (Node's
        // documentation of `request.reusedSocket` advises the same): sent again, on another connection. A
        // server that hung up on the request itself looks the same, so the caller counts it as an attempt.
        if (!(error instanceof StaleConnection)) throw error;
        request.onResend?.();
      }
    }
  } catch (error) {
    stop.end();
    throw error;
  }
}

/** A request that failed on a kept-alive connection the server closed before any answer: the agent has dropped that connection. */
class StaleConnection extends Error {}

/**
 * What ends an exchange early: the caller's signal, or the attempt's time
 * running out. A listener and a timer, rather than an AbortController of
 * its own for each request.
 */
class Stop {
  reason: unknown;
  stopped = false;
  private onStop: ((reason: unknown) => void) | undefined;
  private readonly timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly signal: AbortSignal | undefined,
    timeoutMs: number | undefined,
  ) {
    if (signal?.aborted === true) this.fire(signal.reason);
    else signal?.addEventListener('abort', this.fromSignal, { once: true });
    this.timer = timeoutMs === undefined || this.stopped ? undefined : setTimeout(() => this.fire(timeoutReason()), timeoutMs);
  }

  /** The request to end when it stops: the last one sent. */
  watch(onStop: (reason: unknown) => void): void {
    this.onStop = onStop;
  }

  readonly end = (): void => {
    clearTimeout(this.timer);
    this.signal?.removeEventListener('abort', this.fromSignal);
    this.onStop = undefined;
  };

  private readonly fromSignal = (): void => this.fire(this.signal?.reason);

  private fire(reason: unknown): void {
    if (this.stopped) return;
    this.stopped = true;
    this.reason = reason;
    this.onStop?.(reason);
  }
}

function sendOnce(
  send: typeof httpRequest,
  options: RequestOptions,
  body: string | undefined,
  stop: Stop,
  connectTimeoutMs: number,
): Promise<AnswerHead> {
  if (stop.stopped) return Promise.reject(stop.reason);
  return new Promise((resolve, reject) => {
    let settle: (error: unknown) => void = reject;
    const outgoing: ClientRequest = send(options, (incoming) => {
      const reading = readWhole(incoming, outgoing);
      settle = reading.fail;
      const status = incoming.statusCode ?? 0;
      if (status < 200 || status > 599) {
        outgoing.destroy();
        return reject(
          new TypeError('fetch failed', { cause: new Error(`the server answered with the status ${status}, which is no final answer`) }),
        );
      }
      resolve({ status, statusText: incoming.statusMessage ?? '', headers: pairsOf(incoming.rawHeaders), body: () => reading.whole });
    });
    outgoing.on('error', (error: Error & { code?: string; syscall?: string }) => {
      const beforeAnswer = settle === reject;
      if (beforeAnswer && outgoing.reusedSocket && isHangUp(error) && !stop.stopped)
        return reject(new StaleConnection('stale connection', { cause: error }));
      settle(new TypeError(beforeAnswer ? 'fetch failed' : 'terminated', { cause: closedByServer(error) }));
    });
    stop.watch((reason) => {
      settle(reason);
      outgoing.destroy();
    });
    outgoing.once('socket', (socket) => {
      // A kept connection is open already; only a new one is timed.
      if (!socket.connecting) return;
      const timer = setTimeout(() => outgoing.destroy(connectTimedOut(options, connectTimeoutMs)), connectTimeoutMs);
      const clear = (): void => clearTimeout(timer);
      socket.once('connect', clear);
      socket.once('close', clear);
    });
    outgoing.end(body);
  });
}

/** The body, collected as it comes; `fail` ends it with an error (the first one counts). */
function readWhole(incoming: IncomingMessage, outgoing: ClientRequest): { whole: Promise<Buffer>; fail: (error: unknown) => void } {
  let fail: (error: unknown) => void = () => {};
  const whole = new Promise<Buffer>((resolve, reject) => {
    fail = reject;
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      try {
        resolve(decoded(Buffer.concat(chunks), incoming.headers['content-encoding']));
      } catch (error) {
        reject(new TypeError('terminated', { cause: error }));
      }
    });
    incoming.on('error', (error) => {
      reject(new TypeError('terminated', { cause: closedByServer(error) }));
      outgoing.destroy();
    });
  });
  // Whoever reads the body sees its failure; one nobody reads (an abandoned answer) is no unhandled rejection.
  whole.catch(() => {});
  return { whole, fail };
}

function decoded(bytes: Buffer, encoding: string | undefined): Buffer {
  switch (encoding?.trim().toLowerCase()) {
    case undefined:
    case '':
    case 'identity':
      return bytes;
    case 'gzip':
    case 'x-gzip':
      return gunzipSync(bytes);
    case 'deflate':
      return inflateSync(bytes);
    case 'br':
      return brotliDecompressSync(bytes);
    default:
      throw new Error(`the answer is encoded as ${encoding}, which this client cannot read`);
  }
}

/** A connection that did not open in time, with the code fetch's undici gives it. */
function connectTimedOut(options: RequestOptions, timeoutMs: number): Error {
  const port = options.port ?? (options.protocol === 'https:' ? 443 : 80);
  const error = new Error(`no connection to ${options.hostname ?? options.host}:${port} opened within ${timeoutMs} ms`);
  return Object.assign(error, { name: 'ConnectTimeoutError', code: 'UND_ERR_CONNECT_TIMEOUT' });
}

/** node:http's reset without a system call (`socket hang up`, `aborted`): the server closed the connection. */
function isHangUp(error: Error & { code?: string; syscall?: string }): boolean {
  return error.code === 'ECONNRESET' && error.syscall === undefined;
}

/** A hang-up is what fetch calls `other side closed`. */
function closedByServer(error: Error & { code?: string; syscall?: string }): Error {
  if (!isHangUp(error)) return error;
  return Object.assign(new Error('other side closed', { cause: error }), { name: 'SocketError', code: 'UND_ERR_SOCKET' });
}

function pairsOf(raw: readonly string[]): [string, string][] {
  const pairs: [string, string][] = [];
  for (let index = 0; index + 1 < raw.length; index += 2) pairs.push([raw[index] as string, raw[index + 1] as string]);
  return pairs;
}
