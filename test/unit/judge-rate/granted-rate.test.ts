import { describe, expect, it } from 'vitest';
import { GrantedRate } from '../../../shared/judge-rate/granted-rate.js';
import { seededRandom } from '../../../shared/statistics/seeded-random.js';
import { TokenBucket } from '../../support/token-bucket.js';

/**
 * The rate a limit grants, measured between its refusals: what the server
 * admitted from the first refusal of a span to its latest, over the time
 * between them.
 */

/** Sends one attempt every `everyMs` to `bucket` until `until` (ms), each refusal answered 1 ms after it started. */
function send(rate: GrantedRate, bucket: TokenBucket, clock: { now: number }, everyMs: number, until: number): void {
  while (clock.now < until) {
    rate.started(clock.now);
    if (!bucket.admit().admitted) rate.refused(clock.now, clock.now + 1);
    clock.now += everyMs;
  }
}

describe('GrantedRate', () => {
  it.each([
    ['twice', 50],
    ['ten times', 10],
  ])("measures a token bucket's own rate, not its burst, when sent %s as fast", (_case, everyMs) => {
    // Prepare: 600 a minute (one every 100 ms), a burst of 10, full at the start
    const clock = { now: 0 };
    const bucket = new TokenBucket({ perMinute: 600, burst: 10 }, () => clock.now);
    const rate = new GrantedRate();

    // Act: 5 s of attempts; the first 10 (and the ones a refill lets through meanwhile) empty the bucket
    send(rate, bucket, clock, everyMs, 5_000);

    // Assess: within one request over the span, which opens once the burst is spent (after 1 s at the most) and
    // runs to the last refusal: one request in 3.9 s is 15.4 a minute; what the bucket let through over the 5 s,
    // its burst included, is 10 a minute more than its rate
    const estimate = rate.estimate();
    expect(estimate?.perMinute).toBeGreaterThan(600 - 15.4);
    expect(estimate?.perMinute).toBeLessThan(600 + 15.4);
    expect((estimate?.mostPerMinute ?? 0) - (estimate?.perMinute ?? 0)).toBeLessThan(15.4);
  });

  it('counts an attempt started before the latest refusal and still out as let through: a limit refuses at once', () => {
    // Prepare
    const rate = new GrantedRate();

    // Act: a refusal answered at 10 ms opens the span; attempts start at 100, 200 and 300 ms and are not answered;
    // the one started at 400 ms is refused
    rate.started(0);
    rate.refused(0, 10);
    for (const at of [100, 200, 300, 400]) rate.started(at);
    rate.refused(400, 401);

    // Assess: 3 let through in the 390 ms from 10 to 400
    expect(rate.estimate()?.perMinute).toBeCloseTo((3 * 60_000) / 390, 6);
  });

  it('tells nothing before two refusals with three requests let through between them', () => {
    // Prepare
    const rate = new GrantedRate();
    const before = rate.estimate();

    // Act: a first refusal, two attempts let through, a second refusal
    rate.started(0);
    rate.refused(0, 1);
    rate.started(100);
    rate.started(200);
    rate.started(300);
    rate.refused(300, 301);

    // Assess
    expect({ before, after: rate.estimate() }).toEqual({ before: undefined, after: undefined });
  });

  it("leaves out a first burst's attempts, all started before its first refusal came back", () => {
    // Prepare: 16 attempts at once (a run's start); 6 are refused
    const rate = new GrantedRate();
    for (let attempt = 0; attempt < 16; attempt++) rate.started(0);

    // Act: the refusals come back at 2 ms; then one attempt every 100 ms, the one at 600 ms refused
    for (let refusal = 0; refusal < 6; refusal++) rate.refused(0, 2);
    for (const at of [100, 200, 300, 400, 500, 600]) rate.started(at);
    rate.refused(600, 601);

    // Assess: 5 in the 598 ms from 2 to 600 (the 10 of the burst left out)
    expect(rate.estimate()?.perMinute).toBeCloseTo((5 * 60_000) / 598, 6);
  });

  it('joins the counts of the spans that agree, and starts again from a span that does not: the limit changed', () => {
    // Prepare: a span of 10 let through in 1 s
    const rate = new GrantedRate();
    const span = (from: number, admitted: number, milliseconds: number): void => {
      rate.started(from);
      rate.refused(from, from);
      for (let index = 1; index <= admitted; index++) rate.started(from + (index * milliseconds) / (admitted + 1));
      rate.started(from + milliseconds);
      rate.refused(from + milliseconds, from + milliseconds);
    };
    span(0, 10, 1_000);
    rate.end();

    // Act: a span of 11 in 1 s (within one request of the first), then, ended, one of 30 in 1 s
    span(5_000, 11, 1_000);
    const joined = rate.estimate()?.perMinute;
    rate.end();
    span(10_000, 30, 1_000);

    // Assess: 21 in 2 s, then the last span alone
    expect(joined).toBeCloseTo(630, 6);
    expect(rate.estimate()?.perMinute).toBeCloseTo(1_800, 6);
  });

  it.each([
    ['a token bucket sent 1.6 times its rate: refused after one let through, let through after a refusal', true],
    ['refusals at random, as many', false],
  ])('tells whether the refusals follow the timing of what was let through: %s', (_case, timed) => {
    // Prepare: 600 a minute with a burst of 2, or 37.5% refused from a seeded random; one attempt every 62.5 ms for 5 s
    const clock = { now: 0 };
    const bucket = new TokenBucket({ perMinute: 600, burst: 2 }, () => clock.now);
    const random = seededRandom(3);
    const rate = new GrantedRate();

    // Act
    while (clock.now < 5_000) {
      rate.started(clock.now);
      const refused = timed ? !bucket.admit().admitted : random.nextUint32() / 2 ** 32 < 0.375;
      if (refused) rate.refused(clock.now, clock.now + 1);
      clock.now += 62.5;
    }

    // Assess
    expect(rate.timed()).toBe(timed);
  });
});
