import { describe, expect, it } from 'vitest';
import { simulateRun, type SimulatedJudge } from './simulated-judge.js';

/**
 * The rate governor through whole runs of a simulated judge server on a
 * manual clock (simulated-judge.ts): thousands of judgments in milliseconds,
 * the same outcome on every machine. The figures of the built CLI against
 * the test judge server are bench:judge-throughput's.
 */

/** A sliding window of 10 requests a second: 600 a minute, as the bench enforces it. */
const LIMIT = { requests: 10, windowMs: 1_000 };

describe('the rate governor over whole runs', () => {
  it('costs refusals at random no more than the waits they ask: 20% of 429s and 5% of 500s, no quota headers', async () => {
    // Prepare: 2,000 judgments, 8 at a time, 30 ms an answer; the same refusals as plain failures retried after
    // their 50 ms (what a governor that knew them for noise would do) are the yardstick
    const judge: SimulatedJudge = { latencyMs: 30, jitterMs: 3, seed: 7 };

    // Act
    const clean = await simulateRun({ judge, judgments: 2_000, concurrency: 8 });
    const waitsOnly = await simulateRun({ judge: { ...judge, failedAtRandom: 0.25 }, judgments: 2_000, concurrency: 8 });
    const refusing = await simulateRun({
      judge: { ...judge, refusedAtRandom: 0.2, failedAtRandom: 0.05 },
      judgments: 2_000,
      concurrency: 8,
    });

    // Assess: within 15% of the yardstick (which itself is about 1.9 times the clean run: a quarter of the
    // attempts wait 50 ms on a 30 ms answer); pacing at 90% of what was accepted at each refusal took 25 times
    expect(refusing.answered).toBe(2_000);
    expect(refusing.refused / refusing.attempts).toBeGreaterThan(0.15);
    expect(refusing.tookMs).toBeLessThan(1.15 * waitsOnly.tookMs);
    expect(refusing.tookMs).toBeLessThan(2.2 * clean.tookMs);
    expect(refusing.governor.state().refusalFloor).toBeGreaterThan(0.1);
  });

  it.each([
    [50, 'reset to a whole quota', { reset: 'full' }],
    [50, 'reset to the next free request', { reset: 'next' }],
    [50, 'retry-after only', { headers: false }],
    [500, 'reset to a whole quota', { reset: 'full' }],
    [500, 'reset to the next free request', { reset: 'next' }],
    [500, 'retry-after only', { headers: false }],
  ] as const)(
    'uses at least 85 percent of a 600-a-minute limit, with at most 10 percent refused, at %d ms an answer and x-ratelimit-* headers with %s',
    async (latencyMs, _headers, limit) => {
      // Act: 500 judgments, 16 at a time
      const run = await simulateRun({ judge: { latencyMs, jitterMs: 10, limit: { ...LIMIT, ...limit } }, judgments: 500, concurrency: 16 });

      // Assess: 500 judgments at 10 a second take 50 s at best
      expect(run.answered).toBe(500);
      expect(50_000 / run.tookMs).toBeGreaterThan(0.85);
      expect(run.refused / run.attempts).toBeLessThan(0.1);
    },
  );

  it.each([
    [50, 'the time to the next token (the judge of issue 42)', { reset: 'next' }],
    [50, 'the time to a full bucket (OpenAI)', { reset: 'full' }],
    [50, 'none: retry-after only', { headers: false }],
    [500, 'the time to the next token (the judge of issue 42)', { reset: 'next' }],
    [500, 'the time to a full bucket (OpenAI)', { reset: 'full' }],
    [500, 'none: retry-after only', { headers: false }],
  ] as const)(
    'uses at least 85 percent of a token bucket of 600 a minute with a burst of 10, with at most 10 percent refused, at %d ms an answer and x-ratelimit-reset-requests %s',
    async (latencyMs, _headers, reset) => {
      // Act: 500 judgments, 16 at a time
      const bucket = { perMinute: 600, burst: 10, ...reset };
      const run = await simulateRun({ judge: { latencyMs, jitterMs: 10, bucket }, judgments: 500, concurrency: 16 });

      // Assess: 500 judgments at 10 a second take 50 s at best (49 s with the burst)
      expect(run.answered).toBe(500);
      expect(50_000 / run.tookMs).toBeGreaterThan(0.85);
      expect(run.refused / run.attempts).toBeLessThan(0.1);
      expect(run.governor.state().refusalFloor).toBe(0);
    },
  );

  it.each([
    [1, 16, 50],
    [4, 16, 50],
    [40, 32, 50],
    [2, 4, 300],
  ])(
    'never takes a token bucket’s refusals for random ones: a burst of %d, %d at a time, %d ms an answer',
    async (burst, concurrency, latencyMs) => {
      // Act: a first burst larger than the bucket's, at a first pace several times too fast: shares refused that
      // refusals at random would give too (with a burst of 2, 4 at a time: half at the first burst, and half at the
      // first pace, twice the rate)
      const run = await simulateRun({
        judge: { latencyMs, jitterMs: 10, bucket: { perMinute: 600, burst, headers: false } },
        judgments: 300,
        concurrency,
      });

      // Assess: no floor of refusals taken as the server's, and no knocking at the limit (taken for random, its
      // refusals were half the attempts or more); the first pace, 40 times too fast with a burst of 40, costs 16%
      expect(run.answered).toBe(300);
      expect(run.governor.state().refusalFloor).toBe(0);
      expect(run.refused / run.attempts).toBeLessThan(0.2);
    },
  );

  it('brings a pace that refusals tell far too fast down to the limit: their headers say 101 a second, the server allows 10', async () => {
    // Act
    const refusalHeaders = {
      'x-ratelimit-limit-requests': '101',
      'x-ratelimit-remaining-requests': '0',
      'x-ratelimit-reset-requests': '1s',
    };
    const run = await simulateRun({
      judge: { latencyMs: 50, jitterMs: 10, limit: { ...LIMIT, headers: false }, refusalHeaders },
      judgments: 500,
      concurrency: 16,
    });

    // Assess
    expect(50_000 / run.tookMs).toBeGreaterThan(0.85);
    expect(run.refused / run.attempts).toBeLessThan(0.1);
    expect(run.governor.state().requestsPerMinute).toBeGreaterThan(540);
    expect(run.governor.state().requestsPerMinute).toBeLessThan(700);
  });

  it.each([
    ['refusals at random', { refusedAtRandom: 0.2, failedAtRandom: 0.05 }, 30, 8],
    ['a limit of 10 a second, retry-after only', { limit: { ...LIMIT, headers: false } }, 50, 16],
  ] as const)('comes back to full speed once %s stop', async (_case, faults, latencyMs, concurrency) => {
    // Act: the faults stop 10 s in; 6,000 judgments, and as many without faults
    const judge: SimulatedJudge = { latencyMs, jitterMs: 3 };
    const run = await simulateRun({ judge: { ...judge, faultsUntilMs: 10_000, ...faults }, judgments: 6_000, concurrency });
    const clean = await simulateRun({ judge, judgments: 6_000, concurrency });

    // Assess: the last 2,000 attempts (all answered) come at 90% of the rate without faults at least
    expect(run.answered).toBe(6_000);
    expect(lastRate(run.paces, 2_000)).toBeGreaterThan(0.9 * lastRate(clean.paces, 2_000));
  });
});

/** Attempts settled a second over the last `count`. */
function lastRate(settled: readonly { readonly at: number }[], count: number): number {
  const last = settled.slice(-count);
  return (count * 1_000) / ((last.at(-1)?.at ?? 0) - (last[0]?.at ?? 0));
}
