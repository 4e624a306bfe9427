import { serverErrorOf } from './error-body.js';
import { isSpentQuota } from './judge-failure.js';
import type { CallDeadline } from '../judge-answers/call-deadline.js';
import { askedWait } from '../judge-rate/rate-headers.js';
import type { Permit, RateGovernor } from '../judge-rate/rate-governor.js';
import { exchange } from './http-exchange.js';
import { readWhole, type WholeAnswer } from './whole-answer.js';

/**
 * The fetch the judge client gives the openai SDK (JudgeTransport below). The SDK keeps doing the
 * retrying (408, 409, 5xx, connection errors, timeouts, with its backoff and
 * Retry-After); this wrapper paces the attempts and reads each answer whole
 * before the SDK sees it, over the client's own HTTP (http-exchange.ts,
 * which fails as fetch fails):
 *
 * - every attempt waits for a permit of the server's rate governor
 *   (shared/judge-rate/rate-governor.ts) and reports back what came of it, so the calls of
 *   the whole process meet the server's rate limit together;
 * - a 429 that is a rate limit is not handed to the SDK, whose retries it
 *   would use up: the request waits for the governor (which holds every
 *   attempt for the wait the server asked) and is sent again, as often as
 *   the judgment's deadline allows; once the next permit would come past the
 *   deadline, the 429 goes to the SDK marked not to be retried, and the call
 *   is marked out of time because of the rate limit;
 * - the per-attempt timeout starts once the permit is granted, so waiting
 *   for the rate limit is bounded by the deadline only;
 * - the body is read here, so an answer cut off in the middle (a proxy or a
 *   gateway under load closing the connection) fails the fetch, which the
 *   SDK retries as a connection error, instead of failing later when the SDK
 *   reads the body, which nothing retries;
 * - an error body in another shape than OpenAI's (error-body.ts) is handed
 *   on in OpenAI's, so the SDK's error carries what the server said;
 * - a wait asked in `retry-after-ms` / `retry-after` (seconds or a date) is
 *   cut to `maxRetryWaitMs`: the SDK honours any wait, so `retry-after: 3600`
 *   would hold a worker for an hour;
 * - a retry whose wait would end past the judgment's deadline is not started
 *   (`x-should-retry: false`, which the SDK obeys), and the call is marked out
 *   of time;
 * - a 429 for `insufficient_quota` is not retried: no wait refills a spent
 *   account.
 *
 * It also counts the HTTP attempts of each judgment and the rate-limit
 * refusals among them, for the report (an attempt whose answer was cut
 * counts too: the server did the work), and tells `contact` whether the
 * server answered at all (server-reach.ts).
 */

/** The header that ties an HTTP attempt to its judgment; it never leaves this process (the fetch takes it out). */
export const CALL_HEADER = 'x-assay-attempt-key';

/** The longest backoff the SDK chooses itself when a server asks for no wait (openai 6.x: 8 s). */
const SDK_LONGEST_BACKOFF_MS = 8_000;

export interface TrackedCall {
  attempts: number;
  /** Attempts the server refused as over its rate limit. */
  rateLimited: number;
  /**
   * The rate limit was holding the call: it waits for a permit, or its last
   * answer was a rate-limit refusal (it is being sent again, or has no time
   * left to be). A deadline that comes then is the rate limit's doing.
   */
  heldByRateLimit: boolean;
  readonly deadline: CallDeadline;
  /**
   * The outcome of an attempt made before the SDK took the call over
   * (direct-completion.ts): its next request is answered with it, as if
   * sent, and not counted again.
   */
  replay?: { readonly kind: 'answer'; readonly answer: WholeAnswer } | { readonly kind: 'failure'; readonly error: unknown };
}

/** Whom the wrapper tells whether the server answered. */
export interface ServerContact {
  sawAnswer(): void;
  sawFailure(error: unknown, startedAt: number): void;
  /** An attempt sent at `startedAt` timed out, or its judgment's deadline cut it, before any answer came. */
  sawSilence(startedAt: number, timeoutMs: number): void;
}

export interface FetchBounds {
  readonly maxRetryWaitMs: number;
  /** One HTTP attempt, from its permit to the end of its answer. */
  readonly timeoutMs: number;
  /** A new connection's opening; the exchange's CONNECT_TIMEOUT_MS when not given. */
  readonly connectTimeoutMs?: number | undefined;
  /** The longest answer asked for, part of an attempt's token estimate. */
  readonly maxTokens: number;
  readonly governor: RateGovernor;
}

/** One request as the transport sends it: the SDK's, or the same built without it (direct-completion.ts). */
export interface JudgeRequest {
  readonly url: string | URL;
  readonly method: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string | undefined;
}

/**
 * The judge client's transport: `attempt` sends a request as this comment
 * says and answers it whole; `fetch` is the same for the SDK, with the
 * answer as a Response, and a call's replayed answer (TrackedCall.replay)
 * given back without sending anything.
 */
export class JudgeTransport {
  readonly fetch: typeof globalThis.fetch;

  constructor(
    private readonly bounds: FetchBounds,
    private readonly calls: ReadonlyMap<string, TrackedCall>,
    private readonly contact: ServerContact,
  ) {
    this.fetch = async (input, init) => {
      const request = requestOf(input, init);
      const call = this.callOf(request.headers[CALL_HEADER]);
      const replay = call?.replay;
      if (call !== undefined && replay !== undefined) {
        call.replay = undefined;
        if (replay.kind === 'failure') throw replay.error;
        return replay.answer.toResponse();
      }
      const { [CALL_HEADER]: _key, ...headers } = request.headers;
      return (await this.attempt({ ...request, headers }, init?.signal ?? undefined, call)).toResponse();
    };
  }

  callOf(key: string | undefined): TrackedCall | undefined {
    return key === undefined ? undefined : this.calls.get(key);
  }

  /** Sends the request (again, after a rate-limit refusal, while the deadline allows); the answer the SDK is to read. */
  async attempt(request: JudgeRequest, signal: AbortSignal | undefined, call: TrackedCall | undefined): Promise<WholeAnswer> {
    const { bounds, contact } = this;
    // The SDK sends a judgment's body as a string, which can be sent again as it is.
    const resendable = call !== undefined && request.body !== undefined;
    const onResend = (): void => {
      if (call !== undefined) call.attempts++;
    };
    for (;;) {
      const permit = await permitFor(bounds, request.body, signal, call);
      if (call !== undefined) call.attempts++;
      let whole: WholeAnswer;
      try {
        const startedAt = Date.now();
        const head = await exchange(request.url, {
          ...request,
          signal,
          timeoutMs: bounds.timeoutMs,
          connectTimeoutMs: bounds.connectTimeoutMs,
          onResend,
        }).catch((error: unknown) => {
          // The SDK aborts its retries with a signal of its own, so a deadline that cut one is known by the call, not by the error.
          if (isTimeout(error) || call?.deadline.expired === true) contact.sawSilence(startedAt, bounds.timeoutMs);
          else contact.sawFailure(error, startedAt);
          throw error;
        });
        contact.sawAnswer();
        whole = await readWhole(head);
      } catch (error) {
        permit.done({});
        throw error;
      }
      const { status, headers, tokens } = whole;
      const spentQuota = status === 429 && isSpentQuota(serverErrorOf(whole.json) ?? {});
      const rateLimited = status === 429 && !spentQuota;
      permit.done({ status, headers, rateLimited, ...(tokens === undefined ? {} : { tokens }) });
      if (call !== undefined) call.heldByRateLimit = rateLimited;
      if (call === undefined || !willBeRetried(whole)) return whole;
      if (spentQuota) return whole.edited({ 'x-should-retry': 'false' });
      if (rateLimited) call.rateLimited++;
      if (rateLimited && resendable) {
        if (bounds.governor.nextStartAt() < call.deadline.deadlineAt) continue;
        call.deadline.outOfTime = true;
        return whole.edited({ 'x-should-retry': 'false' });
      }
      return boundedWait(whole, bounds.maxRetryWaitMs, call);
    }
  }
}

/** What the SDK asks, in the exchange's terms: it sends a URL, a method, its headers and a JSON body as text. */
function requestOf(input: Parameters<typeof fetch>[0], init: RequestInit | undefined): JudgeRequest & { headers: Record<string, string> } {
  if (input instanceof Request) throw new TypeError('The judge client sends a URL and its options, not a Request');
  const body = init?.body ?? undefined;
  if (body !== undefined && typeof body !== 'string') throw new TypeError('The judge client sends its requests as JSON text');
  const headers: Record<string, string> = {};
  const given = init?.headers;
  for (const [name, value] of given instanceof Headers ? given : new Headers(given)) headers[name] = value;
  return { url: input, method: init?.method ?? 'GET', headers, body };
}

/** Waits for the governor's permit within the call's deadline, the call marked as held by the rate limit meanwhile. */
async function permitFor(
  bounds: FetchBounds,
  body: string | undefined,
  signal: AbortSignal | null | undefined,
  call: TrackedCall | undefined,
): Promise<Permit> {
  // About four characters a token, plus the answer's room, as OpenAI itself counts a request against a token limit.
  const tokens = Math.ceil((body?.length ?? 0) / 4) + bounds.maxTokens;
  // The SDK's signal follows the call's (judge-client.ts links it to the deadline): the wait ends with either.
  const ended = signal ?? call?.deadline.signal;
  // Held while it waits; once granted, held still if it is being sent again after a refusal.
  const refusedBefore = call?.heldByRateLimit ?? false;
  if (call !== undefined) call.heldByRateLimit = true;
  const permit = await bounds.governor.acquire(tokens, ended);
  if (call !== undefined) call.heldByRateLimit = refusedBefore;
  return permit;
}

/** A retry the SDK will make: its wait cut to the cap, or not made when it would end past the deadline. */
function boundedWait(response: WholeAnswer, maxRetryWaitMs: number, call: TrackedCall): WholeAnswer {
  const asked = askedWait(response.headers);
  const wait = asked === undefined ? undefined : Math.min(asked, maxRetryWaitMs);
  if ((wait ?? SDK_LONGEST_BACKOFF_MS) >= call.deadline.deadlineAt - Date.now()) {
    call.deadline.outOfTime = true;
    return response.edited({ 'x-should-retry': 'false' });
  }
  return wait === undefined ? response : response.edited({ 'retry-after-ms': String(Math.round(wait)), 'retry-after': undefined });
}

/** The SDK's own rule (openai 6.x shouldRetry). */
function willBeRetried(response: WholeAnswer): boolean {
  const header = response.headers.get('x-should-retry');
  if (header === 'false') return false;
  if (header === 'true') return true;
  return response.status === 408 || response.status === 409 || response.status === 429 || response.status >= 500;
}

/** The attempt's own timeout, or its judgment's deadline (call-deadline.ts timeoutReason): no other stop is a timeout. */
function isTimeout(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'TimeoutError';
}
