import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { systemClock, type Clock } from '../../shared/ports/clock.js';
import {
  chatCompletionAnswer,
  parseChatRequest,
  refusalOf,
  type ChatRequest,
  type Oracle,
  type OracleAnswer,
  type RequestRefusals,
} from './chat-completion-answer.js';
import { RequestWindow, type RequestAdmission, type RequestLimit } from './request-window.js';
import { TokenBucket, type TokenBucketLimit } from './token-bucket.js';

export type { ChatMessage, ChatRequest, Oracle, OracleAnswer } from './chat-completion-answer.js';

/**
 * A local stand-in for the Chat Completions endpoint, close enough to the real
 * one that the official `openai` client talks to it unchanged, at OpenAI's
 * path (`/v1/chat/completions`) and at Azure OpenAI's
 * (`/openai/deployments/{deployment}/chat/completions?api-version=...`, where
 * a request must carry the api-version, and the `api-key` header when the
 * server is started with `azureKey`). Tests use it to
 * drive an LLM-judge client through rate limits, server errors, unparseable
 * answers, refused features and slow answers, and to count the calls it made.
 */

/**
 * A fault forced on one request, whatever the probabilities say; 'none' lets the request through.
 * 'cut': the answer's headers and half its body, then the connection is destroyed (a proxy or
 * gateway dropping it mid-response); 'hang-up': the connection is destroyed before any answer.
 */
export type ForcedFault = '429' | '500' | 'garbage' | 'slow' | 'content-filter' | 'insufficient-quota' | 'cut' | 'hang-up' | 'none';

/**
 * How error bodies are written: 'openai' nests them (`{"error": {message, type, param, code}}`);
 * 'top-level' writes the fields at the top as vLLM does (`{"object": "error", message, type,
 * param, code}`, code the status when there is no other); 'fastapi' writes `{"detail": message}`.
 */
export type ErrorShape = 'openai' | 'top-level' | 'fastapi';

/** Its refusals (refuseResponseFormat, refuseTools, refusalStatus, refuseParameters) are declared in chat-completion-answer.ts, which the batch server shares. */
export interface FaultPlan extends RequestRefusals {
  /** Probabilities in [0,1], drawn from a seeded PRNG per HTTP request so runs are reproducible. */
  rateLimit?: number;
  serverError?: number;
  slow?: number;
  garbage?: number;
  seed?: number;
  /** Sent as `retry-after-ms` with every 429 and 500; default 5. */
  retryAfterMs?: number;
  /** Default 200. */
  slowMs?: number;
  /** One fault per request for the first requests after this plan is set, before the probabilities apply. */
  firstFaults?: readonly ForcedFault[];
  /** Sent instead of the short retry-after-ms with every 429 and 500: a `retry-after` header in seconds, as most servers send it. */
  retryAfterSeconds?: number;
  /**
   * Answer every request with this status and an error body that repeats the
   * key of the Authorization header, as some gateways do: whole, or cut to its
   * first and last 10 characters ("sk-abc...xyz").
   */
  echoKey?: { status: 401 | 403 | 500; form: 'whole' | 'truncated' };
  /** The shape of the error bodies of refusals, content filters, quotas, 429s and 500s; default 'openai'. */
  errorShape?: ErrorShape;
  /** Every admitted request is answered after this long (a model's generation time); refusals by requestLimit come at once. */
  latencyMs?: number;
  /** A sliding-window requests-per-minute quota (request-window.ts): past it, 429 with retry-after-ms and OpenAI's x-ratelimit-* headers. */
  requestLimit?: RequestLimit;
  /** A token-bucket requests-per-minute quota instead (token-bucket.ts): past it, 429 with the wait until the next request is allowed. */
  tokenBucket?: TokenBucketLimit;
}

/** 'abandoned': the client hung up (timed out) before the answer; status is then 0. */
export type Outcome =
  | 'answer'
  | '429'
  | '500'
  | 'garbage'
  | 'refused'
  | 'content-filter'
  | 'insufficient-quota'
  | 'cut'
  | 'hang-up'
  | 'key-echoed'
  | 'abandoned'
  | 'oracle-error';

export interface LoggedRequest {
  readonly request: ChatRequest;
  readonly status: number;
  readonly outcome: Outcome;
  readonly authorization: string | undefined;
  /** The path and query string the request was sent to. */
  readonly url: string;
  /** Every request header, names in lower case (the client's retry count is `x-stainless-retry-count`). */
  readonly headers: Readonly<Record<string, string>>;
  /** performance.now() when the request arrived, and when its answer was sent (undefined until then, or when none was). */
  readonly receivedAt: number;
  readonly answeredAt?: number;
}

export interface OpenAiTestServer {
  /** e.g. http://127.0.0.1:PORT/v1 */
  readonly baseUrl: string;
  /** e.g. http://127.0.0.1:PORT: the endpoint of an Azure OpenAI resource. */
  readonly origin: string;
  /** Every chat-completion request received (faulted ones too), in order of arrival. */
  readonly log: readonly LoggedRequest[];
  /** Number of chat-completion requests answered 200 with the oracle's answer. */
  answered(): number;
  /** Replaces the plan and restarts its PRNG and firstFaults from the beginning. */
  setFaults(plan: FaultPlan): void;
  setOracle(oracle: Oracle): void;
  close(): Promise<void>;
}

const GARBAGE = "I think it's relevant!!";

/** What the server decides on arrival; 'abandoned' and 'oracle-error' only become known later. */
type Decision = 'answer' | '429' | '500' | 'garbage' | 'refused' | 'content-filter' | 'insufficient-quota' | 'cut' | 'hang-up';
/** 'hang-up' sends no status: 0, as for an abandoned request. */
const STATUS: Record<Decision, number> = {
  answer: 200,
  garbage: 200,
  refused: 400,
  'content-filter': 400,
  'insufficient-quota': 429,
  '429': 429,
  '500': 500,
  cut: 200,
  'hang-up': 0,
};

/**
 * `azureKey`: the key an Azure request's `api-key` header must carry; a request without it is answered 401 as Azure answers it.
 * `clock`: the time slow answers and latency take (a test's simulated clock, for a run on the same clock); the wall's by default.
 */
export async function startOpenAiTestServer(options: {
  oracle: Oracle;
  faults?: FaultPlan;
  azureKey?: string;
  clock?: Clock;
}): Promise<OpenAiTestServer> {
  const clock = options.clock ?? systemClock;
  const log: { -readonly [Key in keyof LoggedRequest]: LoggedRequest[Key] }[] = [];
  let oracle = options.oracle;
  let oracleCalls = 0;
  let plan: FaultPlan = {};
  let random = seededRandom(0);
  let requestsUnderPlan = 0;
  let window: RequestAdmission | undefined;
  const setFaults = (next: FaultPlan): void => {
    checkFaultPlan(next);
    plan = next;
    random = seededRandom(next.seed ?? 0);
    requestsUnderPlan = 0;
    window =
      next.requestLimit !== undefined
        ? new RequestWindow(next.requestLimit)
        : next.tokenBucket !== undefined
          ? new TokenBucket(next.tokenBucket)
          : undefined;
  };
  setFaults(options.faults ?? {});

  async function handle(incoming: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(incoming.url ?? '/', 'http://127.0.0.1');
    const azure = /^\/openai\/deployments\/[^/]+\/chat\/completions$/.test(url.pathname);
    if (incoming.method !== 'POST' || (url.pathname !== '/v1/chat/completions' && !azure)) {
      const message = `Unknown request URL: ${incoming.method} ${url.pathname}`;
      return sendError(response, 404, message, 'invalid_request_error', 'unknown_url');
    }
    const parsed = parseRequest(await readBody(incoming));
    if (typeof parsed === 'string') return sendError(response, 400, parsed, 'invalid_request_error', null);
    const request = parsed;
    const receivedAt = performance.now();
    const refusedByAzure = azure ? azureRefusal(url, incoming.headers['api-key'], options.azureKey) : undefined;
    if (refusedByAzure !== undefined) {
      log.push({
        request,
        status: refusedByAzure.status,
        outcome: 'refused',
        authorization: incoming.headers.authorization,
        url: incoming.url ?? '/',
        headers: headersOf(incoming),
        receivedAt,
      });
      return sendJson(response, refusedByAzure.status, { error: { code: String(refusedByAzure.status), message: refusedByAzure.message } });
    }
    if (plan.echoKey !== undefined) return echoKey(incoming, response, request, plan.echoKey, log);
    const admission = window?.admit();
    if (admission !== undefined && !admission.admitted) {
      log.push({
        request,
        status: 429,
        outcome: '429',
        authorization: incoming.headers.authorization,
        url: incoming.url ?? '/',
        headers: headersOf(incoming),
        receivedAt,
        answeredAt: receivedAt,
      });
      const message = `Rate limit reached for ${request.model} on requests per min. Please try again in ${admission.waitMs}ms.`;
      const waits = { 'retry-after-ms': String(admission.waitMs), 'retry-after': String(Math.ceil(admission.waitMs / 1000)) };
      return sendError(response, 429, message, 'requests', 'rate_limit_exceeded', { ...admission.headers, ...waits });
    }

    // Four draws for every request, used or not, so one probability never shifts the others' sequence.
    const [rateLimitDraw, serverErrorDraw, garbageDraw, slowDraw] = [random(), random(), random(), random()];
    const forced = plan.firstFaults?.[requestsUnderPlan] ?? 'none';
    requestsUnderPlan += 1;
    const refusal = refusalOf(request, plan);
    const outcome: Decision =
      refusal !== undefined
        ? 'refused'
        : forced === 'content-filter' || forced === 'insufficient-quota' || forced === 'cut' || forced === 'hang-up'
          ? forced
          : forced === '429' || (forced === 'none' && rateLimitDraw < (plan.rateLimit ?? 0))
            ? '429'
            : forced === '500' || (forced === 'none' && serverErrorDraw < (plan.serverError ?? 0))
              ? '500'
              : forced === 'garbage' || (forced === 'none' && garbageDraw < (plan.garbage ?? 0))
                ? 'garbage'
                : 'answer';
    const status = outcome === 'refused' ? (refusal?.status ?? 400) : STATUS[outcome];
    const entry: (typeof log)[number] = {
      request,
      status,
      outcome,
      authorization: incoming.headers.authorization,
      url: incoming.url ?? '/',
      headers: headersOf(incoming),
      receivedAt,
    };
    const position = log.push(entry);
    response.once('finish', () => {
      entry.answeredAt = performance.now();
    });
    // An answer the connection closed under (a killed client's, written into its dead socket) reached nobody: not counted as one.
    response.once('close', () => {
      if (entry.outcome === 'answer' && !response.writableFinished) {
        entry.status = 0;
        entry.outcome = 'abandoned';
      }
    });

    const slow = forced === 'slow' || (forced === 'none' && slowDraw < (plan.slow ?? 0));
    const delayMs = (plan.latencyMs ?? 0) + (slow ? (plan.slowMs ?? 200) : 0);
    if (clientGone(response) || (delayMs > 0 && !(await clientWaits(response, delayMs, clock)))) {
      entry.status = 0;
      entry.outcome = 'abandoned';
      return;
    }
    // Sent with the answer, so they say what the quota is when the client reads them.
    const quota = window?.headers() ?? {};
    // Both headers, so the client's backoff follows the test's short delay instead of its own half second.
    const retryAfter: Record<string, string> =
      plan.retryAfterSeconds !== undefined
        ? { 'retry-after': String(plan.retryAfterSeconds) }
        : { 'retry-after-ms': String(plan.retryAfterMs ?? 5), 'retry-after': '0' };
    const shape = plan.errorShape ?? 'openai';
    if (refusal !== undefined)
      return sendError(response, refusal.status, refusal.message, 'invalid_request_error', refusal.code, {}, refusal.param, shape);
    if (outcome === 'content-filter') {
      const message =
        'The response was filtered due to the prompt triggering the content management policy. Please modify your prompt and retry.';
      return sendError(response, 400, message, 'invalid_request_error', 'content_filter', {}, 'prompt', shape);
    }
    if (outcome === 'insufficient-quota') {
      const message = 'You exceeded your current quota, please check your plan and billing details.';
      return sendError(response, 429, message, 'insufficient_quota', 'insufficient_quota', retryAfter, null, shape);
    }
    if (outcome === '429') {
      const message = `Rate limit reached for ${request.model}. Please try again in ${plan.retryAfterMs ?? 5}ms.`;
      return sendError(response, 429, message, 'requests', 'rate_limit_exceeded', retryAfter, null, shape);
    }
    if (outcome === '500') {
      const message = 'The server had an error while processing your request. Sorry about that!';
      return sendError(response, 500, message, 'server_error', null, retryAfter, null, shape);
    }
    if (outcome === 'hang-up') return void response.socket?.destroy();
    if (outcome === 'garbage') return sendJson(response, 200, chatCompletionAnswer(request, { text: GARBAGE }, position).body);
    let answer: OracleAnswer;
    try {
      answer = oracle(request, oracleCalls++);
    } catch (error) {
      entry.status = 500;
      entry.outcome = 'oracle-error';
      // x-should-retry: false, so a broken oracle fails the test at once instead of being retried.
      const message = `The test oracle threw: ${error instanceof Error ? error.message : String(error)}`;
      return sendError(response, 500, message, 'server_error', 'oracle_error', { 'x-should-retry': 'false' });
    }
    if (outcome === 'cut') return cutOff(response, chatCompletionAnswer(request, answer, position).body);
    sendJson(response, 200, chatCompletionAnswer(request, answer, position).body, quota);
  }

  const server = createServer((incoming, response) => {
    handle(incoming, response).catch((error: unknown) => {
      if (response.headersSent) return response.destroy();
      const message = `The test server failed: ${error instanceof Error ? error.message : String(error)}`;
      sendError(response, 500, message, 'server_error', null, { 'x-should-retry': 'false' });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  let closing: Promise<void> | undefined;

  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    origin: `http://127.0.0.1:${port}`,
    log,
    answered: () => log.filter((entry) => entry.outcome === 'answer').length,
    setFaults,
    setOracle: (next) => {
      oracle = next;
    },
    close: () => {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        // Idle keep-alive sockets would otherwise hold the server (and the test run) open.
        server.closeAllConnections();
      });
      return closing;
    },
  };
}

function echoKey(
  incoming: IncomingMessage,
  response: ServerResponse,
  request: ChatRequest,
  echo: NonNullable<FaultPlan['echoKey']>,
  log: LoggedRequest[],
): void {
  log.push({
    request,
    status: echo.status,
    outcome: 'key-echoed',
    authorization: incoming.headers.authorization,
    url: incoming.url ?? '/',
    headers: headersOf(incoming),
    receivedAt: performance.now(),
  });
  const key = (incoming.headers.authorization ?? '').replace(/^Bearer /, '');
  const shown = echo.form === 'whole' ? key : `${key.slice(0, 10)}...${key.slice(-10)}`;
  const message = `Incorrect API key provided: ${shown}. You can find your API key at https://platform.example/account/api-keys.`;
  // A short retry-after, so a 500 goes through the client's retries quickly.
  sendError(response, echo.status, message, 'invalid_request_error', 'invalid_api_key', { 'retry-after-ms': '5', 'retry-after': '0' });
}

/** Azure's answers to a request without an api-version (its 404 for an unknown route) or without the resource's key. */
function azureRefusal(
  url: URL,
  apiKey: string | string[] | undefined,
  expectedKey: string | undefined,
): { status: number; message: string } | undefined {
  if (!url.searchParams.has('api-version')) return { status: 404, message: 'Resource not found' };
  if (expectedKey === undefined || apiKey === expectedKey) return undefined;
  const message =
    'Access denied due to invalid subscription key or wrong API endpoint. Make sure to provide a valid key for an active subscription and use a correct regional API endpoint for your resource.';
  return { status: 401, message };
}

function parseRequest(body: string): ChatRequest | string {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return 'We could not parse the JSON body of your request. Expected a JSON object.';
  }
  return parseChatRequest(value);
}

async function readBody(incoming: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of incoming) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function headersOf(incoming: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(incoming.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}

/**
 * Whether the client's connection is gone before any answer: a request read in
 * full from a process killed since (its bytes were in the socket's buffer)
 * has no one to answer, whether it waits first or not.
 */
function clientGone(response: ServerResponse): boolean {
  // A client's end of the connection makes the server end its own (not writable) before it is destroyed.
  return response.socket === null || response.socket.destroyed || !response.socket.writable;
}

/** Waits milliseconds on the clock; false when the client hung up first (its timeout fired, or the server is closing). */
async function clientWaits(response: ServerResponse, milliseconds: number, clock: Clock): Promise<boolean> {
  const hungUp = new AbortController();
  const hangUp = (): void => hungUp.abort();
  response.once('close', hangUp);
  await clock.sleep(milliseconds, hungUp.signal);
  response.off('close', hangUp);
  return !hungUp.signal.aborted;
}

function sendError(
  response: ServerResponse,
  status: number,
  message: string,
  type: string,
  code: string | null,
  headers: Record<string, string> = {},
  param: string | null = null,
  shape: ErrorShape = 'openai',
): void {
  const body =
    shape === 'top-level'
      ? { object: 'error', message, type, param, code: code ?? status }
      : shape === 'fastapi'
        ? { detail: message }
        : { error: { message, type, param, code } };
  sendJson(response, status, body, headers);
}

/** The headers (with the whole body's length) and half the body, then the connection destroyed. */
function cutOff(response: ServerResponse, body: object): void {
  const text = Buffer.from(JSON.stringify(body));
  response.writeHead(200, { 'content-type': 'application/json', 'content-length': String(text.length) });
  response.write(text.subarray(0, Math.floor(text.length / 2)), () => response.socket?.destroy());
}

function sendJson(response: ServerResponse, status: number, body: object, headers: Record<string, string> = {}): void {
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(JSON.stringify(body));
}

/** mulberry32: tiny, fast and good enough to make fault sequences reproducible from a seed. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = Math.imul(state ^ (state >>> 15), state | 1);
    mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), mixed | 61);
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4294967296;
  };
}

function checkFaultPlan(plan: FaultPlan): void {
  for (const name of ['rateLimit', 'serverError', 'slow', 'garbage'] as const) {
    const value = plan[name];
    if (value !== undefined && !(value >= 0 && value <= 1)) {
      throw new TypeError(`Expected ${name} to be a probability from 0 to 1, got ${value}`);
    }
  }
  for (const name of ['retryAfterMs', 'slowMs', 'retryAfterSeconds', 'latencyMs'] as const) {
    const value = plan[name];
    if (value !== undefined && !(Number.isFinite(value) && value >= 0)) {
      throw new TypeError(`Expected ${name} to be a number from 0 up, got ${value}`);
    }
  }
}
