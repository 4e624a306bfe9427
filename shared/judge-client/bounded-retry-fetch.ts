import { serverErrorOf } from './error-body.js';
import { isSpentQuota } from './judge-failure.js';
import type { CallDeadline } from '../judge-answers/call-deadline.js';
import { askedWait } from '../judge-rate/rate-headers.js';
import type { Permit, RateGovernor } from '../judge-rate/rate-governor.js';
import { edited, readWhole } from './whole-answer.js';

/**
 * The fetch the judge client gives the openai SDK. The SDK keeps doing the
 * retrying (408, 409, 5xx, connection errors, timeouts, with its backoff and
 * Retry-After); this wrapper paces the attempts and reads each answer whole
 * before the SDK sees it:
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

/** The header that ties an HTTP attempt to its judgment; it never leaves this process's requests' metadata. */
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
}

/** Whom the wrapper tells whether the server answered. */
export interface ServerContact {
  sawAnswer(): void;
  sawFailure(error: unknown): void;
}

export interface FetchBounds {
  readonly maxRetryWaitMs: number;
  /** One HTTP attempt, from its permit to the end of its answer. */
  readonly timeoutMs: number;
  /** The longest answer asked for, part of an attempt's token estimate. */
  readonly maxTokens: number;
  readonly governor: RateGovernor;
}

export function boundedRetryFetch(bounds: FetchBounds, calls: ReadonlyMap<string, TrackedCall>, contact: ServerContact): typeof fetch {
  return async (input, init) => {
    const key = new Headers(init?.headers).get(CALL_HEADER);
    const call = key === null ? undefined : calls.get(key);
    // The SDK sends a judgment's body as a string, which can be sent again as it is.
    const resendable = call !== undefined && typeof init?.body === 'string';
    for (;;) {
      const permit = await permitFor(bounds, init, call);
      if (call !== undefined) call.attempts++;
      let whole: Awaited<ReturnType<typeof readWhole>>;
      try {
        const response = await fetch(input, { ...init, signal: attemptSignal(init?.signal, bounds.timeoutMs) }).catch((error: unknown) => {
          contact.sawFailure(error);
          throw error;
        });
        contact.sawAnswer();
        whole = await readWhole(response);
      } catch (error) {
        permit.done({});
        throw error;
      }
      const { status, headers } = whole.response;
      const spentQuota = status === 429 && isSpentQuota(serverErrorOf(whole.json) ?? {});
      const rateLimited = status === 429 && !spentQuota;
      permit.done({ status, headers, rateLimited, ...(whole.tokens === undefined ? {} : { tokens: whole.tokens }) });
      if (call !== undefined) call.heldByRateLimit = rateLimited;
      if (call === undefined || !willBeRetried(whole.response)) return whole.response;
      if (spentQuota) return edited(whole.response, { 'x-should-retry': 'false' });
      if (rateLimited) call.rateLimited++;
      if (rateLimited && resendable) {
        if (bounds.governor.nextStartAt() < call.deadline.deadlineAt) continue;
        call.deadline.outOfTime = true;
        return edited(whole.response, { 'x-should-retry': 'false' });
      }
      return boundedWait(whole.response, bounds.maxRetryWaitMs, call);
    }
  };
}

/** Waits for the governor's permit within the call's deadline, the call marked as held by the rate limit meanwhile. */
async function permitFor(bounds: FetchBounds, init: RequestInit | undefined, call: TrackedCall | undefined): Promise<Permit> {
  const body = typeof init?.body === 'string' ? init.body : '';
  // About four characters a token, plus the answer's room, as OpenAI itself counts a request against a token limit.
  const tokens = Math.ceil(body.length / 4) + bounds.maxTokens;
  const signals = [init?.signal, call?.deadline.signal].filter((signal): signal is AbortSignal => signal !== undefined && signal !== null);
  // Held while it waits; once granted, held still if it is being sent again after a refusal.
  const refusedBefore = call?.heldByRateLimit ?? false;
  if (call !== undefined) call.heldByRateLimit = true;
  const permit = await bounds.governor.acquire(tokens, signals.length === 0 ? undefined : AbortSignal.any(signals));
  if (call !== undefined) call.heldByRateLimit = refusedBefore;
  return permit;
}

function attemptSignal(signal: AbortSignal | null | undefined, timeoutMs: number): AbortSignal {
  const timeout = AbortSignal.timeout(timeoutMs);
  return signal === undefined || signal === null ? timeout : AbortSignal.any([signal, timeout]);
}

/** A retry the SDK will make: its wait cut to the cap, or not made when it would end past the deadline. */
function boundedWait(response: Response, maxRetryWaitMs: number, call: TrackedCall): Response {
  const asked = askedWait(response.headers);
  const wait = asked === undefined ? undefined : Math.min(asked, maxRetryWaitMs);
  if ((wait ?? SDK_LONGEST_BACKOFF_MS) >= call.deadline.deadlineAt - Date.now()) {
    call.deadline.outOfTime = true;
    return edited(response, { 'x-should-retry': 'false' });
  }
  return wait === undefined ? response : edited(response, { 'retry-after-ms': String(Math.round(wait)), 'retry-after': undefined });
}

/** The SDK's own rule (openai 6.x shouldRetry). */
function willBeRetried(response: Response): boolean {
  const header = response.headers.get('x-should-retry');
  if (header === 'false') return false;
  if (header === 'true') return true;
  return response.status === 408 || response.status === 409 || response.status === 429 || response.status >= 500;
}
