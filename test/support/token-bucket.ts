import { openAiDuration, type RequestAdmission, type WindowDecision } from './request-window.js';

/**
 * A token-bucket request limit, as most API gateways and model servers
 * enforce a requests-per-minute quota: the bucket holds at most `burst`
 * requests, starts full, and refills at `perMinute` / 60 a second; a
 * request takes one, and one arriving at an empty bucket is refused with
 * the wait until the next one (`retry-after-ms`). Every answer, refused or
 * not, carries `x-ratelimit-limit-requests` (the per-minute quota, as
 * OpenAI sends it), `x-ratelimit-remaining-requests` (whole requests left in
 * the bucket) and `x-ratelimit-reset-requests`, which servers read two ways:
 *
 * - 'full': the time until the bucket is full again, OpenAI's meaning ("the
 *   time until the rate limit (based on requests) resets to its initial
 *   state", platform.openai.com/docs/guides/rate-limits, "Rate limits in
 *   headers"; its example: limit 60, remaining 59, reset 1s);
 * - 'next': the time until one more request is allowed (0 while the bucket
 *   is full), the same as the refusal's `retry-after-ms`: the judge of
 *   issue 42, on which assay knocked twice for every answer.
 *
 * Only admitted requests take from the bucket.
 */
export interface TokenBucketLimit {
  readonly perMinute: number;
  readonly burst: number;
  /** Default 'full'. */
  readonly reset?: 'full' | 'next';
  /** Send the x-ratelimit-* headers (default true); without them only retry-after-ms and retry-after say anything. */
  readonly headers?: boolean;
}

export class TokenBucket implements RequestAdmission {
  private tokens: number;
  private refilledAt: number;
  private readonly perMillisecond: number;

  constructor(
    private readonly limit: TokenBucketLimit,
    private readonly now: () => number = () => performance.now(),
  ) {
    if (!(limit.perMinute > 0)) throw new RangeError(`Expected perMinute above 0, got ${limit.perMinute}`);
    if (!Number.isInteger(limit.burst) || limit.burst < 1)
      throw new RangeError(`Expected burst to be an integer from 1 up, got ${limit.burst}`);
    this.perMillisecond = limit.perMinute / 60_000;
    this.tokens = limit.burst;
    this.refilledAt = now();
  }

  admit(): WindowDecision {
    const now = this.now();
    this.refill(now);
    if (this.tokens < 1) return { admitted: false, waitMs: Math.max(1, Math.ceil(this.untilWhole(1))), headers: this.headers(now) };
    this.tokens -= 1;
    return { admitted: true, headers: this.headers(now) };
  }

  headers(now = this.now()): Record<string, string> {
    if (this.limit.headers === false) return {};
    this.refill(now);
    const resetMs = this.limit.reset === 'next' ? this.untilWhole(Math.floor(this.tokens) + 1) : this.untilWhole(this.limit.burst);
    return {
      'x-ratelimit-limit-requests': String(this.limit.perMinute),
      'x-ratelimit-remaining-requests': String(Math.floor(this.tokens)),
      'x-ratelimit-reset-requests': openAiDuration(resetMs),
    };
  }

  /** Milliseconds until the bucket holds `tokens` (at most a full bucket; 0 when it does). */
  private untilWhole(tokens: number): number {
    return Math.max(0, Math.min(tokens, this.limit.burst) - this.tokens) / this.perMillisecond;
  }

  private refill(now: number): void {
    this.tokens = Math.min(this.limit.burst, this.tokens + (now - this.refilledAt) * this.perMillisecond);
    this.refilledAt = Math.max(this.refilledAt, now);
  }
}
