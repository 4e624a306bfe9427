/**
 * What a judge server says about its rate limits, read from the headers
 * OpenAI sends and most OpenAI-compatible servers copy:
 *
 * - `retry-after-ms` (milliseconds) or `Retry-After` (seconds, or an HTTP
 *   date): the wait a refused request asks for;
 * - `x-ratelimit-limit-requests` / `-tokens`: the quota;
 *   `x-ratelimit-remaining-requests` / `-tokens`: what is left of it;
 *   `x-ratelimit-reset-requests` / `-tokens`: the time until it is whole
 *   again, written `1s`, `250ms`, `6m0s` or as plain seconds.
 *
 * Anything missing or unreadable is left out: a server owes none of them.
 */

/** The one thing the governor needs of a response's headers; fetch's Headers has it. */
export interface HeaderReader {
  get(name: string): string | null;
}

export interface QuotaState {
  readonly limit?: number;
  readonly remaining?: number;
  /** Milliseconds until the quota is whole again. */
  readonly resetMs?: number;
}

export interface RateHeaders {
  /** The wait asked for, in milliseconds. */
  readonly waitMs?: number;
  readonly requests: QuotaState;
  readonly tokens: QuotaState;
}

export function readRateHeaders(headers: HeaderReader, now = Date.now()): RateHeaders {
  const waitMs = askedWait(headers, now);
  return { ...(waitMs === undefined ? {} : { waitMs }), requests: quotaOf(headers, 'requests'), tokens: quotaOf(headers, 'tokens') };
}

/** The wait a response asks for, in milliseconds, read as the openai SDK reads it; undefined when it asks none. */
export function askedWait(headers: HeaderReader, now = Date.now()): number | undefined {
  const milliseconds = Number.parseFloat(headers.get('retry-after-ms') ?? '');
  if (Number.isFinite(milliseconds) && milliseconds > 0) return milliseconds;
  const retryAfter = headers.get('retry-after');
  if (retryAfter === null) return Number.isFinite(milliseconds) ? milliseconds : undefined;
  const seconds = Number.parseFloat(retryAfter);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(retryAfter);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

function quotaOf(headers: HeaderReader, kind: 'requests' | 'tokens'): QuotaState {
  const limit = count(headers.get(`x-ratelimit-limit-${kind}`));
  const remaining = count(headers.get(`x-ratelimit-remaining-${kind}`));
  const resetMs = durationMs(headers.get(`x-ratelimit-reset-${kind}`));
  return {
    ...(limit === undefined ? {} : { limit }),
    ...(remaining === undefined ? {} : { remaining }),
    ...(resetMs === undefined ? {} : { resetMs }),
  };
}

function count(text: string | null): number | undefined {
  if (text === null || !/^\s*\d+\s*$/.test(text)) return undefined;
  return Number.parseInt(text, 10);
}

const DURATION_PART = /(\d+(?:\.\d+)?)(ms|h|m|s)/g;
const UNIT_MS: Readonly<Record<string, number>> = { h: 3_600_000, m: 60_000, s: 1_000, ms: 1 };

/** `6m0s`, `1.5s`, `250ms`, `1h2m`, or a plain number of seconds; undefined when it is none of these. */
export function durationMs(text: string | null): number | undefined {
  if (text === null) return undefined;
  const trimmed = text.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Number.parseFloat(trimmed) * 1000;
  if (!/^(\d+(\.\d+)?(ms|h|m|s))+$/.test(trimmed)) return undefined;
  let total = 0;
  for (const [, amount, unit] of trimmed.matchAll(DURATION_PART)) total += Number.parseFloat(amount ?? '0') * (UNIT_MS[unit ?? 's'] ?? 0);
  return total;
}
