import { z } from 'zod';
import { BAD_PORT_FIX, badPortProblem, fetchRefusedPort } from '../network/fetch-bad-ports.js';

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

/** An http(s) server URL without credentials: the Bedrock endpoint, which the AWS SDK reaches over node:http. */
export const serverUrlSchema = z
  .url({ protocol: /^https?$/ })
  .refine((url) => !hasCredentials(url), { message: CREDENTIALS_PROBLEM, params: { fix: credentialsFix() } });

/**
 * A server URL the openai SDK calls through fetch: the config file's `base_url`
 * settings and the Azure endpoint. A port fetch refuses (shared/network/fetch-bad-ports.ts)
 * would fail every call without reaching the server.
 */
export const judgeBaseUrlSchema = serverUrlSchema.superRefine((url, context) => {
  const port = fetchRefusedPort(url);
  if (port !== undefined) context.addIssue({ code: 'custom', message: badPortProblem(port), params: { fix: BAD_PORT_FIX } });
});
