import type { Result } from '../schema/result.js';
/**
 * fetch that follows redirects only within the origin it was sent to. An
 * engine's request carries its credentials in custom headers, the URL and
 * the body, and fetch's own `redirect: 'follow'` strips only Authorization
 * when it crosses origins: any other header would reach the redirect's
 * target, and that target's hits would be scored as the engine's. So a
 * redirect to another origin is refused, as are a loop, too many hops and
 * a target that is not http(s); each is a permanent failure, since asking
 * again gives the same redirect.
 */

export const MAX_REDIRECTS = 5;

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

export interface SameOriginRequest {
  readonly method: 'GET' | 'POST';
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string | undefined;
  readonly signal: AbortSignal;
}

/** The final answer, or why a redirect was not followed (a sentence without the target's path or query). */
export type SameOriginFetch = Result<Response>;

/** Sends the request and follows same-origin redirects as fetch would; rejects as fetch does on a network fault. */
export async function fetchWithinOrigin(url: string, request: SameOriginRequest): Promise<SameOriginFetch> {
  let current = new URL(url);
  let method: string = request.method;
  let body = request.body;
  let headers: Record<string, string> = { ...request.headers };
  const visited = [{ method, url: current }];
  for (;;) {
    const response = await fetch(current, { method, headers, body, signal: request.signal, redirect: 'manual' });
    const location = response.headers.get('location');
    if (!REDIRECT_STATUSES.has(response.status) || location === null) return { ok: true, value: response };
    // The redirect's own body is not read; cancelling it frees the connection.
    await response.body?.cancel();
    // As fetch does: 303 asks for a GET, and so do 301 and 302 after a POST; 307 and 308 repeat the request.
    if (response.status === 303 ? method !== 'GET' : method === 'POST' && response.status !== 307 && response.status !== 308) {
      method = 'GET';
      body = undefined;
      headers = Object.fromEntries(Object.entries(headers).filter(([name]) => name !== 'content-type'));
    }
    const next = nextUrl(response.status, location, current, method, visited);
    if (typeof next === 'string') return { ok: false, error: next };
    current = next;
    visited.push({ method, url: current });
  }
}

/** The next URL to ask, or why it is not asked. */
function nextUrl(
  status: number,
  location: string,
  current: URL,
  method: string,
  visited: readonly { method: string; url: URL }[],
): URL | string {
  let next: URL;
  try {
    next = new URL(location, current);
  } catch {
    return `the service redirected (HTTP ${status}) to something that is not a URL`;
  }
  if (next.protocol !== 'http:' && next.protocol !== 'https:')
    return `the service redirected (HTTP ${status}) to a ${next.protocol} URL; only http and https are followed`;
  if (next.origin !== current.origin) {
    return `the service redirected (HTTP ${status}) to another origin, ${next.origin}; assay does not follow it, so the engine's headers never leave ${current.origin} (fix: set url to the address it redirects to)`;
  }
  if (visited.some((step) => step.method === method && step.url.href === next.href)) {
    return `the service redirects in a loop (${[...visited.map((step) => step.url), next].map((url) => url.pathname).join(' -> ')})`;
  }
  if (visited.length > MAX_REDIRECTS) return `the service redirected more than ${MAX_REDIRECTS} times (last to ${next.pathname})`;
  return next;
}
