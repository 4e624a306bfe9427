import { z } from 'zod';

/**
 * A judge server's base URL must not carry credentials (`http://user:password@host/v1`):
 * the judge client sends its key as a bearer token from OPENAI_API_KEY, and a
 * URL is printed, logged and kept in reports and cache keys where a password
 * would leak. Node's fetch refuses such a URL anyway, so every call would fail.
 * Checked where a base URL comes in (OPENAI_BASE_URL, the config's base_url),
 * before any call, with a message that never repeats the password.
 */

export const CREDENTIALS_PROBLEM = 'holds a user name or password (user:password@ before the host)';

/** How to fix it; with the URL, the URL without its credentials is shown. */
export function credentialsFix(url?: string): string {
  const shown = url === undefined ? '' : ` (${withoutCredentials(url)})`;
  return `give the URL without them${shown} and put the key in the OPENAI_API_KEY environment variable, which is sent as a bearer token`;
}

/** True when `url` (a valid URL) names a user or a password. */
export function hasCredentials(url: string): boolean {
  const parsed = URL.parse(url);
  return parsed !== null && (parsed.username !== '' || parsed.password !== '');
}

/** `url` without its user and password, to show the user what to give instead. */
export function withoutCredentials(url: string): string {
  const parsed = URL.parse(url);
  if (parsed === null) return url;
  parsed.username = '';
  parsed.password = '';
  return parsed.href;
}

/** An http(s) base URL without credentials, for the config file's `base_url` settings. */
export const judgeBaseUrlSchema = z
  .url({ protocol: /^https?$/ })
  .refine((url) => !hasCredentials(url), { message: CREDENTIALS_PROBLEM, params: { fix: credentialsFix() } });
