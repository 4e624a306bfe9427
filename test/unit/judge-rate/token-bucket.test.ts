import { describe, expect, it } from 'vitest';
import { TokenBucket } from '../../support/token-bucket.js';

/**
 * The token bucket the test judge and the benchmark limit requests with
 * (test/support/token-bucket.ts): what it admits, and the headers it sends
 * as OpenAI sends them.
 */

describe('the test judge’s token bucket', () => {
  it('lets a full burst through at once, then one request a token, refusing with the wait until the next', () => {
    // Prepare: 600 a minute (a token every 100 ms), a burst of 10
    const clock = { now: 0 };
    const bucket = new TokenBucket({ perMinute: 600, burst: 10 }, () => clock.now);

    // Act: 11 at once, then one 40 ms later, then one at 100 ms
    const burst = Array.from({ length: 11 }, () => bucket.admit().admitted);
    clock.now = 40;
    const early = bucket.admit();
    clock.now = 100;
    const onTime = bucket.admit();

    // Assess
    expect(burst).toEqual([...Array.from({ length: 10 }, () => true), false]);
    expect(early).toMatchObject({ admitted: false, waitMs: 60 });
    expect(onTime.admitted).toBe(true);
  });

  it.each([
    ['full', '1s', '560ms'],
    ['next', '100ms', '60ms'],
  ] as const)(
    'sends the minute’s quota, what remains and x-ratelimit-reset-requests as the time to a %s bucket',
    (reset, emptyReset, laterReset) => {
      // Prepare
      const clock = { now: 0 };
      const bucket = new TokenBucket({ perMinute: 600, burst: 10, reset }, () => clock.now);
      for (let request = 0; request < 10; request++) bucket.admit();

      // Act: refused once empty; 440 ms later, 4.4 tokens are back
      const refusal = bucket.admit();
      clock.now = 440;
      const later = bucket.headers();

      // Assess: a full bucket is 1 s away when empty, then 560 ms; the next token 100 ms, then 60 ms
      expect(refusal.headers).toEqual({
        'x-ratelimit-limit-requests': '600',
        'x-ratelimit-remaining-requests': '0',
        'x-ratelimit-reset-requests': emptyReset,
      });
      expect(later).toMatchObject({ 'x-ratelimit-remaining-requests': '4', 'x-ratelimit-reset-requests': laterReset });
    },
  );

  it('sends no x-ratelimit-* headers when told not to', () => {
    // Prepare
    const bucket = new TokenBucket({ perMinute: 600, burst: 1, headers: false }, () => 0);

    // Act
    bucket.admit();
    const refusal = bucket.admit();

    // Assess
    expect(refusal).toEqual({ admitted: false, waitMs: 100, headers: {} });
  });
});
