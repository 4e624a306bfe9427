import { nestedErrorBody, serverErrorOf } from './error-body.js';
import { isSpentQuota } from './judge-failure.js';
import type { CallDeadline } from './call-deadline.js';

/**
 * The fetch the judge client gives the openai SDK. The SDK keeps doing the
 * retrying (408, 409, 429, 5xx, connection errors, with its backoff and
 * Retry-After); this wrapper reads each answer whole first, and edits the
 * answers before the SDK reads them:
 *
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
 * It also counts the HTTP attempts of each judgment, for the report (an
 * attempt whose answer was cut counts too: the server did the work), and
 * tells `contact` whether the server answered at all (server-reach.ts).
 */

/** The header that ties an HTTP attempt to its judgment; it never leaves this process's requests' metadata. */
export const CALL_HEADER = 'x-assay-attempt-key';

/** The longest backoff the SDK chooses itself when a server asks for no wait (openai 6.x: 8 s). */
const SDK_LONGEST_BACKOFF_MS = 8_000;

export interface TrackedCall {
  attempts: number;
  readonly deadline: CallDeadline;
}

/** Whom the wrapper tells whether the server answered. */
export interface ServerContact {
  sawAnswer(): void;
  sawFailure(error: unknown): void;
}

export function boundedRetryFetch(maxRetryWaitMs: number, calls: ReadonlyMap<string, TrackedCall>, contact: ServerContact): typeof fetch {
  return async (input, init) => {
    const key = new Headers(init?.headers).get(CALL_HEADER);
    const call = key === null ? undefined : calls.get(key);
    if (call !== undefined) call.attempts++;
    const response = await fetch(input, init).catch((error: unknown) => {
      contact.sawFailure(error);
      throw error;
    });
    contact.sawAnswer();
    const whole = await readWhole(response);
    if (!willBeRetried(whole.response) || call === undefined) return whole.response;
    if (whole.response.status === 429 && isSpentQuota(serverErrorOf(whole.json) ?? {})) return edited(whole.response, { 'x-should-retry': 'false' });
    const asked = askedWait(whole.response.headers);
    const wait = asked === undefined ? undefined : Math.min(asked, maxRetryWaitMs);
    if ((wait ?? SDK_LONGEST_BACKOFF_MS) >= call.deadline.deadlineAt - Date.now()) {
      call.deadline.outOfTime = true;
      return edited(whole.response, { 'x-should-retry': 'false' });
    }
    return wait === undefined ? whole.response : edited(whole.response, { 'retry-after-ms': String(Math.round(wait)), 'retry-after': undefined });
  };
}

/** The SDK's own rule (openai 6.x shouldRetry). */
function willBeRetried(response: Response): boolean {
  const header = response.headers.get('x-should-retry');
  if (header === 'false') return false;
  if (header === 'true') return true;
  return response.status === 408 || response.status === 409 || response.status === 429 || response.status >= 500;
}

/** The wait a response asks for, in milliseconds, read as the SDK reads it; undefined when it asks none. */
export function askedWait(headers: Headers): number | undefined {
  const milliseconds = Number.parseFloat(headers.get('retry-after-ms') ?? '');
  if (Number.isFinite(milliseconds) && milliseconds > 0) return milliseconds;
  const retryAfter = headers.get('retry-after');
  if (retryAfter === null) return Number.isFinite(milliseconds) ? milliseconds : undefined;
  const seconds = Number.parseFloat(retryAfter);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(retryAfter);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

/** Statuses whose answers have no body, which a Response cannot be built with. */
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

/**
 * The answer with its body read to the end (a judge's answers are small), and
 * an error body in OpenAI's shape. Reading fails as fetch fails when the
 * connection breaks, or when the SDK's timeout or the deadline aborts it.
 */
async function readWhole(response: Response): Promise<{ response: Response; json: unknown }> {
  const bytes = new Uint8Array(await response.arrayBuffer());
  const json = response.ok ? undefined : parsedJson(bytes);
  const reshaped = json === undefined ? undefined : nestedErrorBody(json);
  const headers = new Headers(response.headers);
  // The body handed on is the decoded one, whole.
  for (const name of ['content-encoding', 'content-length', 'transfer-encoding']) headers.delete(name);
  const body = NULL_BODY_STATUSES.has(response.status) ? null : (reshaped ?? bytes);
  return { response: new Response(body, { status: response.status, statusText: response.statusText, headers }), json };
}

function parsedJson(bytes: Uint8Array): unknown {
  try {
    return JSON.parse(new TextDecoder().decode(bytes)) as unknown;
  } catch {
    // Not JSON (an HTML error page): the SDK reports the text as it is.
    return undefined;
  }
}

function edited(response: Response, changes: Record<string, string | undefined>): Response {
  const headers = new Headers(response.headers);
  for (const [name, value] of Object.entries(changes)) {
    if (value === undefined) headers.delete(name);
    else headers.set(name, value);
  }
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}
