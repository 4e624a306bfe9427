import { codeIn, networkFault } from '../network/network-fault.js';
import type { BodyRead } from './bounded-body.js';
import type { ConnectorResult } from './engine.js';

export function transient(message: string, retryAfterMs?: number): ConnectorResult {
  return { ok: false, error: { kind: 'transient', message, ...(retryAfterMs === undefined ? {} : { retry_after_ms: retryAfterMs }) } };
}

export function permanent(message: string): ConnectorResult {
  return { ok: false, error: { kind: 'permanent', message } };
}

/** 408, 425, 429 and every 5xx are worth another try; the rest of 4xx are not. */
export function isTransientStatus(status: number): boolean {
  return status === 408 || status === 425 || status === 429 || status >= 500;
}

/** Seconds or an HTTP date, as Retry-After allows; undefined when absent or unreadable. */
export function retryAfterMs(header: string | null | undefined, now = Date.now()): number | undefined {
  if (header === null || header === undefined || header.trim() === '') return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** A short, single-line excerpt of an answer body for an error message. */
export function excerpt(text: string, limit = 200): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= limit ? flat : `${flat.slice(0, limit)}...`;
}

/** An answer above the engine's max_answer_bytes: permanent, as the same question gets the same answer. */
export function tooLarge(target: string, limit: number, declared?: number): ConnectorResult {
  const fix = '(fix: ask for fewer or shorter hits, or raise max_answer_bytes)';
  return declared === undefined
    ? permanent(`${target}: the answer passed max_answer_bytes (${limit} bytes), so reading stopped there ${fix}`)
    : permanent(
        `${target}: the answer is ${declared} bytes (its Content-Length), above max_answer_bytes (${limit} bytes); it was not read ${fix}`,
      );
}

/**
 * A body that failed while it was read: a broken content encoding (zlib's
 * Z_* codes) is permanent, as the same answer comes back broken; anything
 * else is a connection closed mid-answer, worth another try.
 */
export function bodyFailure(target: string, read: Extract<BodyRead, { kind: 'broken' }>): ConnectorResult {
  const encoding = codeIn(read.error, (code) => code.startsWith('Z_'));
  if (encoding !== undefined) return permanent(`${target}: the answer's content encoding is broken (${encoding})`);
  const reason = networkFault(read.error)?.code ?? (read.error instanceof Error ? read.error.message : String(read.error));
  return transient(`${target}: the connection was closed mid-answer, after ${read.bytes} bytes (${reason})`);
}
