import { isSpentQuota } from './judge-failure.js';
import type { CallDeadline } from './call-deadline.js';

/**
 * The fetch the judge client gives the openai SDK. The SDK keeps doing the
 * retrying (408, 409, 429, 5xx, connection errors, with its backoff and
 * Retry-After); this wrapper only edits the answers it retries on, before
 * the SDK reads them:
 *
 * - a wait asked in `retry-after-ms` / `retry-after` (seconds or a date) is
 *   cut to `maxRetryWaitMs`: the SDK honours any wait, so `retry-after: 3600`
 *   would hold a worker for an hour;
 * - a retry whose wait would end past the judgment's deadline is not started
 *   (`x-should-retry: false`, which the SDK obeys), and the call is marked out
 *   of time;
 * - a 429 for `insufficient_quota` is not retried: no wait refills a spent
 *   account.
 *
 * It also counts the HTTP attempts of each judgment, for the report.
 */

/** The header that ties an HTTP attempt to its judgment; it never leaves this process's requests' metadata. */
export const CALL_HEADER = 'x-assay-attempt-key';

/** The longest backoff the SDK chooses itself when a server asks for no wait (openai 6.x: 8 s). */
const SDK_LONGEST_BACKOFF_MS = 8_000;

export interface TrackedCall {
  attempts: number;
  readonly deadline: CallDeadline;
}

export function boundedRetryFetch(maxRetryWaitMs: number, calls: ReadonlyMap<string, TrackedCall>): typeof fetch {
  return async (input, init) => {
    const key = new Headers(init?.headers).get(CALL_HEADER);
    const call = key === null ? undefined : calls.get(key);
    if (call !== undefined) call.attempts++;
    const response = await fetch(input, init);
    if (!willBeRetried(response) || call === undefined) return response;
    if (response.status === 429 && isSpentQuota(await errorOf(response))) return edited(response, { 'x-should-retry': 'false' });
    const asked = askedWait(response.headers);
    const wait = asked === undefined ? undefined : Math.min(asked, maxRetryWaitMs);
    if ((wait ?? SDK_LONGEST_BACKOFF_MS) >= call.deadline.deadlineAt - Date.now()) {
      call.deadline.outOfTime = true;
      return edited(response, { 'x-should-retry': 'false' });
    }
    return wait === undefined ? response : edited(response, { 'retry-after-ms': String(Math.round(wait)), 'retry-after': undefined });
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

async function errorOf(response: Response): Promise<{ code?: unknown; type?: unknown }> {
  try {
    const body = (await response.clone().json()) as { error?: { code?: unknown; type?: unknown } } | null;
    return body?.error ?? {};
  } catch {
    return {};
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
