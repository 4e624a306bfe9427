import { describe, expect, it } from 'vitest';
import { RateGovernor, type GovernorSettings, type Permit } from '../../../../shared/judge-client/rate/rate-governor.js';
import { ManualClock, settle } from '../../../support/manual-clock.js';

/**
 * The rate governor on a clock the tests move: the in-flight window (AIMD),
 * the holds a refusal asks for, and the paces configured or learnt from a
 * refusal's quota headers.
 */

function governorOf(settings: Partial<GovernorSettings> = {}): { governor: RateGovernor; clock: ManualClock } {
  const clock = new ManualClock();
  return { governor: new RateGovernor({ maxInFlight: 4, maxHoldMs: 30_000, clock, ...settings }), clock };
}

/** Asks for `count` permits at once; the list fills as they are granted. */
function ask(governor: RateGovernor, count: number, tokens = 100): Permit[] {
  const granted: Permit[] = [];
  for (let index = 0; index < count; index++) void governor.acquire(tokens).then((permit) => granted.push(permit));
  return granted;
}

const answered = { status: 200 };
const refused = (headers: Record<string, string> = {}) => ({ status: 429, rateLimited: true, headers: new Headers(headers) });

describe('RateGovernor: the in-flight window', () => {
  it('grants as many permits as the window at once, and the next when one is handed back', async () => {
    // Prepare
    const { governor } = governorOf({ maxInFlight: 4 });

    // Act
    const granted = ask(governor, 6);
    await settle();
    const before = granted.length;
    granted[0]?.done(answered);
    await settle();

    // Assess
    expect({ before, after: granted.length }).toEqual({ before: 4, after: 5 });
  });

  it('halves the window on a refusal that says nothing of the quota, once for the attempts in flight together, and grows it back by one a window of answers', async () => {
    // Prepare: 8 in flight, two of them refused together (no wait header: a 500 ms hold)
    const { governor, clock } = governorOf({ maxInFlight: 8 });
    const first = ask(governor, 8);
    await settle();

    // Act
    first[0]?.done(refused());
    first[1]?.done(refused());
    const halved = governor.state().window;
    await clock.advance(1_000);
    for (const permit of first.slice(2)) permit.done(answered);
    // Worked arithmetic: from 4, each answer adds 1/window: 4 + 1/4 + 1/4.25 + ... six answers reach 5.3
    const grown = governor.state().window;

    // Assess
    expect(halved).toBe(4);
    expect(grown).toBeGreaterThan(5.2);
    expect(grown).toBeLessThan(5.5);
  });

  it('never halves below one, and grows back to the concurrency at most', async () => {
    // Prepare
    const { governor, clock } = governorOf({ maxInFlight: 2 });

    // Act: three refusals one after the other, each from an attempt started after the last halving
    for (let refusal = 0; refusal < 3; refusal++) {
      const granted = ask(governor, 1);
      await clock.advance(10_000);
      granted[0]?.done(refused());
    }
    const floor = governor.state().window;
    for (let answer = 0; answer < 20; answer++) {
      const granted = ask(governor, 1);
      await clock.advance(10_000);
      granted[0]?.done(answered);
    }

    // Assess
    expect({ floor, ceiling: governor.state().window }).toEqual({ floor: 1, ceiling: 2 });
  });
});

describe('RateGovernor: holds', () => {
  it.each([
    ['retry-after-ms', { 'retry-after-ms': '750' }, 750],
    ['Retry-After in seconds', { 'retry-after': '2' }, 2_000],
    ['the requests quota reset when no wait is asked', { 'x-ratelimit-remaining-requests': '0', 'x-ratelimit-reset-requests': '1.5s' }, 1_500],
  ])('holds every new attempt for the wait a refusal asks in %s', async (_name, headers, waitMs) => {
    // Prepare: a window of 8, 4 once halved
    const { governor, clock } = governorOf({ maxInFlight: 8 });
    const first = await governor.acquire(100);

    // Act: the refusal, then three attempts asking meanwhile
    first.done(refused(headers));
    const waiting = ask(governor, 3);
    await clock.advance(waitMs - 1);
    const held = waiting.length;
    await clock.advance(1);

    // Assess
    expect({ held, released: waiting.length }).toEqual({ held: 0, released: 3 });
  });

  it('cuts a wait longer than maxHoldMs to it', async () => {
    // Prepare
    const { governor, clock } = governorOf({ maxHoldMs: 5_000 });
    const first = await governor.acquire(100);

    // Act
    first.done(refused({ 'retry-after': '3600' }));
    const waiting = ask(governor, 1);
    await clock.advance(5_000);

    // Assess
    expect(waiting).toHaveLength(1);
  });

  it('backs off 0.5 s, then 1 s, then 2 s when refusals ask for no wait, and starts again at 0.5 s after an answer', async () => {
    // Prepare
    const { governor, clock } = governorOf();
    const holds: number[] = [];

    // Act: each refusal's hold is measured by when the next permit comes
    let permit = await governor.acquire(100);
    for (let refusal = 0; refusal < 4; refusal++) {
      const refusedAt = clock.now();
      permit.done(refused());
      const next = governor.acquire(100);
      let granted = false;
      void next.then(() => (granted = true));
      while (!granted) await clock.advance(10);
      holds.push(clock.now() - refusedAt);
      permit = await next;
      if (refusal === 2) {
        permit.done(answered);
        permit = await governor.acquire(100);
      }
    }

    // Assess
    expect(holds).toEqual([500, 1_000, 2_000, 500]);
  });
});

describe('RateGovernor: paces', () => {
  it('spaces attempts evenly at 98% of configured requests per minute, from the first', async () => {
    // Prepare: 60 a minute paced at 58.8, one every 1,020.4 ms
    const { governor, clock } = governorOf({ maxInFlight: 10, limits: { requestsPerMinute: 60 } });
    const grantedAt: number[] = [];

    // Act
    for (let index = 0; index < 4; index++) void governor.acquire(1).then(() => grantedAt.push(clock.now()));
    await clock.advance(4_000);

    // Assess: timers wake on whole milliseconds, so each gap is 1,020.4 ms rounded up to the next one
    const gaps = grantedAt.slice(1).map((at, index) => at - (grantedAt[index] ?? 0));
    expect({ first: grantedAt[0], granted: grantedAt.length }).toEqual({ first: 0, granted: 4 });
    for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(1_020.4);
    for (const gap of gaps) expect(gap).toBeLessThan(1_022);
  });

  it('spends tokens per minute by the estimate and gives back what the answer says it did not use', async () => {
    // Prepare: 6,000 tokens a minute paced at 5,880, 98 a second; each attempt estimated at 980 tokens (10 s)
    const { governor, clock } = governorOf({ maxInFlight: 10, limits: { tokensPerMinute: 6_000 } });
    const first = await governor.acquire(980);

    // Act: the answer says 490 tokens, so the next may start after 5 s instead of 10 s
    await clock.advance(1_000);
    first.done({ status: 200, tokens: 490 });
    const next = ask(governor, 1, 980);
    await clock.advance(3_999);
    const early = next.length;
    await clock.advance(1);

    // Assess
    expect({ early, atFiveSeconds: next.length }).toEqual({ early: 0, atFiveSeconds: 1 });
  });

  it('learns 98% of (limit - 1) / reset from a refusal that gives the quota, and leaves the window whole', async () => {
    // Prepare: a sliding window of 10 a second, filled evenly: its newest request is 100 ms old, so it is whole again in 900 ms
    const { governor } = governorOf({ maxInFlight: 8 });
    const first = await governor.acquire(100);

    // Act
    first.done(refused({ 'retry-after-ms': '10', 'x-ratelimit-limit-requests': '10', 'x-ratelimit-remaining-requests': '0', 'x-ratelimit-reset-requests': '900ms' }));

    // Assess: (10 - 1) / 0.9 s = 10 a second = 600 a minute, paced at 588
    expect(governor.state()).toMatchObject({ window: 8, requestsPerMinute: 588 });
  });

  it('learns 90% of the rate the server accepted over the last second from a refusal with no quota headers', async () => {
    // Prepare: 5 attempts in the last second were answered, 1 refused
    const { governor, clock } = governorOf({ maxInFlight: 8 });
    const permits = ask(governor, 6);
    await clock.advance(500);
    for (const permit of permits.slice(1)) permit.done(answered);

    // Act
    permits[0]?.done(refused());

    // Assess: 5 accepted in 1 s = 300 a minute, paced at 270
    expect(governor.state().requestsPerMinute).toBeCloseTo(270, 6);
  });

  it('raises a learnt pace by 0.2% an answer, but not on an answer that says the quota is used up', async () => {
    // Prepare: a learnt pace of 588 a minute
    const { governor, clock } = governorOf({ maxInFlight: 8 });
    const first = await governor.acquire(100);
    first.done(refused({ 'x-ratelimit-limit-requests': '10', 'x-ratelimit-remaining-requests': '0', 'x-ratelimit-reset-requests': '900ms' }));
    await clock.advance(30_000);

    // Act
    const permits = ask(governor, 2);
    await clock.advance(1_000);
    const [room, full] = permits;
    room?.done({ status: 200, headers: new Headers({ 'x-ratelimit-remaining-requests': '3' }) });
    const raised = governor.state().requestsPerMinute;
    full?.done({ status: 200, headers: new Headers({ 'x-ratelimit-remaining-requests': '0' }) });

    // Assess
    expect(raised).toBeCloseTo(588 * 1.002, 6);
    expect(governor.state().requestsPerMinute).toBeCloseTo(588 * 1.002, 6);
  });
});

describe('RateGovernor: waiting', () => {
  it('rejects a waiting attempt with its signal\'s reason, and grants the next in its place', async () => {
    // Prepare
    const { governor } = governorOf({ maxInFlight: 1 });
    const first = await governor.acquire(100);
    const stop = new AbortController();
    const abandoned = governor.acquire(1, stop.signal);
    const next = ask(governor, 1);

    // Act
    stop.abort(new Error('the deadline came'));
    first.done(answered);
    await settle();

    // Assess
    await expect(abandoned).rejects.toThrow('the deadline came');
    expect(next).toHaveLength(1);
  });

  it('adopts a larger concurrency and a lower configured rate from a later caller, and keeps the lower of two rates', async () => {
    // Prepare
    const { governor } = governorOf({ maxInFlight: 4, limits: { requestsPerMinute: 600 } });

    // Act
    governor.adopt({ maxInFlight: 16, maxHoldMs: 30_000, limits: { requestsPerMinute: 300 } });
    governor.adopt({ maxInFlight: 8, maxHoldMs: 30_000, limits: { requestsPerMinute: 1_200 } });

    // Assess: 300 paced at 98%
    expect(governor.state()).toMatchObject({ window: 16, requestsPerMinute: 294 });
  });
});
