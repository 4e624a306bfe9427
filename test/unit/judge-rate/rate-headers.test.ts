import { describe, expect, it } from 'vitest';
import { durationMs, readRateHeaders } from '../../../shared/judge-rate/rate-headers.js';

describe('rate-limit headers', () => {
  it.each([
    ['1s', 1_000],
    ['250ms', 250],
    ['6m0s', 360_000],
    ['1m30.5s', 90_500],
    ['1h2m', 3_720_000],
    ['17.281s', 17_281],
    ['2', 2_000],
    ['0.5', 500],
  ])('reads the duration %s as %d ms', (text, milliseconds) => {
    expect(durationMs(text)).toBeCloseTo(milliseconds, 6);
  });

  it.each(['', 'soon', '5 minutes', '-1s', '1d'])('reads %j as no duration', (text) => {
    expect(durationMs(text)).toBeUndefined();
  });

  it('reads the wait, the quotas of requests and tokens, and leaves out what is missing or not a count', () => {
    const headers = new Headers({
      'retry-after-ms': '120',
      'x-ratelimit-limit-requests': '600',
      'x-ratelimit-remaining-requests': '0',
      'x-ratelimit-reset-requests': '100ms',
      'x-ratelimit-limit-tokens': 'many',
      'x-ratelimit-remaining-tokens': '149000',
    });

    expect(readRateHeaders(headers)).toEqual({
      waitMs: 120,
      requests: { limit: 600, remaining: 0, resetMs: 100 },
      tokens: { remaining: 149_000 },
    });
  });

  it('reads Retry-After as seconds, or as an HTTP date from now', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');

    expect(readRateHeaders(new Headers({ 'retry-after': '3' }), now).waitMs).toBe(3_000);
    expect(readRateHeaders(new Headers({ 'retry-after': 'Thu, 01 Jan 2026 00:00:05 GMT' }), now).waitMs).toBe(5_000);
  });
});
