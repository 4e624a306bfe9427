/**
 * A sliding-window request limit, as a judge server enforces a requests-per-
 * minute quota: at most `requests` admitted in any `windowMs`. A request past
 * it is refused with the wait until the oldest admitted one leaves the window,
 * and every answer carries OpenAI's `x-ratelimit-*` headers: the limit, what
 * remains, and the time until the window is empty again ("resets to its
 * initial state", in OpenAI's words) in OpenAI's duration format (`1s`,
 * `250ms`, `1m30s`). Only admitted requests count, as on OpenAI.
 */
export interface RequestLimit {
  readonly requests: number;
  readonly windowMs: number;
  /** Send the x-ratelimit-* headers (default true); without them only retry-after-ms and retry-after say anything. */
  readonly headers?: boolean;
  /**
   * What x-ratelimit-reset-requests gives: 'full' (default), the time until
   * the window is empty, as OpenAI documents it; 'next', the time until the
   * next request is allowed (0 while some remain), as other servers read it.
   */
  readonly reset?: 'full' | 'next';
}

export type WindowDecision =
  | { admitted: true; headers: Record<string, string> }
  | { admitted: false; waitMs: number; headers: Record<string, string> };

/** A request limit as a test server keeps it: a sliding window (below) or a token bucket (token-bucket.ts). */
export interface RequestAdmission {
  /** Admits a request arriving now, or says how long until one would be. */
  admit(): WindowDecision;
  /** The x-ratelimit-* headers as they stand now (for an answer sent after its latency). */
  headers(now?: number): Record<string, string>;
}

export class RequestWindow implements RequestAdmission {
  /** Admission times, oldest first. */
  private readonly admitted: number[] = [];

  constructor(
    private readonly limit: RequestLimit,
    private readonly now: () => number = () => performance.now(),
  ) {
    if (!Number.isInteger(limit.requests) || limit.requests < 1)
      throw new RangeError(`Expected requests to be an integer from 1 up, got ${limit.requests}`);
    if (!(limit.windowMs > 0)) throw new RangeError(`Expected windowMs above 0, got ${limit.windowMs}`);
  }

  /** Admits a request arriving now, or says how long until one would be. */
  admit(): WindowDecision {
    const now = this.now();
    this.forgetBefore(now);
    if (this.admitted.length >= this.limit.requests) {
      const waitMs = Math.max(1, Math.ceil((this.admitted[0] ?? now) + this.limit.windowMs - now));
      return { admitted: false, waitMs, headers: this.headers(now) };
    }
    this.admitted.push(now);
    return { admitted: true, headers: this.headers(now) };
  }

  /** The x-ratelimit-* headers as they stand now (for an answer sent after its latency). */
  headers(now = this.now()): Record<string, string> {
    if (this.limit.headers === false) return {};
    this.forgetBefore(now);
    const counted =
      this.limit.reset === 'next' ? (this.admitted.length < this.limit.requests ? undefined : this.admitted[0]) : this.admitted.at(-1);
    const resetMs = counted === undefined ? 0 : Math.max(0, counted + this.limit.windowMs - now);
    return {
      'x-ratelimit-limit-requests': String(this.limit.requests),
      'x-ratelimit-remaining-requests': String(this.limit.requests - this.admitted.length),
      'x-ratelimit-reset-requests': openAiDuration(resetMs),
    };
  }

  private forgetBefore(now: number): void {
    while (this.admitted.length > 0 && (this.admitted[0] ?? now) <= now - this.limit.windowMs) this.admitted.shift();
  }
}

/** OpenAI's way of writing a duration: `6m0s`, `1.5s`, `250ms`. */
export function openAiDuration(milliseconds: number): string {
  const rounded = Math.ceil(milliseconds);
  if (rounded < 1000) return `${rounded}ms`;
  const minutes = Math.floor(rounded / 60_000);
  const seconds = (rounded - minutes * 60_000) / 1000;
  return minutes > 0 ? `${minutes}m${seconds}s` : `${seconds}s`;
}
