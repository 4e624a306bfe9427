import { describe, expect, it } from 'vitest';
import { RateGovernor, type AttemptOutcome, type GovernorSettings, type Permit } from '../../../shared/judge-rate/rate-governor.js';
import { RequestWindow } from '../../support/request-window.js';
import { TokenBucket } from '../../support/token-bucket.js';
import { ManualClock, settle } from '../../support/manual-clock.js';

/**
 * The rate governor on a clock the tests move: its places in flight, the
 * holds a refusal asks for, the paces configured or told by a refusal's
 * quota headers, and the control loop that learns a pace round by round.
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

const answered: AttemptOutcome = { status: 200 };
const refused = (headers: Record<string, string> = {}): AttemptOutcome => ({
  status: 429,
  rateLimited: true,
  headers: new Headers(headers),
});

describe('RateGovernor: places in flight', () => {
  it('grants as many permits as its places at once, and the next when one is handed back', async () => {
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

  it('once it paces, holds no one else for a refusal: the refused attempt keeps its own place for the wait it asks', async () => {
    // Prepare: a first refusal tells a pace of 588 a minute (one every 102 ms) and holds every attempt for its 100 ms
    const { governor, clock } = governorOf({ maxInFlight: 2 });
    const first = await governor.acquire(100);
    first.done(
      refused({
        'retry-after-ms': '100',
        'x-ratelimit-limit-requests': '11',
        'x-ratelimit-remaining-requests': '0',
        'x-ratelimit-reset-requests': '1s',
      }),
    );
    const second = ask(governor, 1);
    await clock.advance(1_000);
    second[0]?.done(answered);
    const heldBefore = governor.state().heldUntil;
    const third = ask(governor, 1);
    await settle();

    // Act: a refusal without quota headers asking 1 s; two more attempts ask at once
    third[0]?.done(refused({ 'retry-after-ms': '1000' }));
    const waiting = ask(governor, 2);
    await clock.advance(999);
    const beforeTheWait = waiting.length;
    await clock.advance(1);

    // Assess: no new hold; one place free at once (as the pace allows), the refused attempt's after its 1 s
    expect({ heldUntil: governor.state().heldUntil, beforeTheWait, afterTheWait: waiting.length }).toEqual({
      heldUntil: heldBefore,
      beforeTheWait: 1,
      afterTheWait: 2,
    });
  });
});

describe('RateGovernor: holds', () => {
  it.each([
    ['retry-after-ms', { 'retry-after-ms': '750' }, 750],
    ['Retry-After in seconds', { 'retry-after': '2' }, 2_000],
    [
      'the requests quota reset when no wait is asked',
      { 'x-ratelimit-remaining-requests': '0', 'x-ratelimit-reset-requests': '1.5s' },
      1_500,
    ],
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

  it('starts the learnt pace at a configured rate: a refusal at it holds no one else and is left to the rounds to judge', async () => {
    // Prepare
    const { governor } = governorOf({ maxInFlight: 4, limits: { requestsPerMinute: 600 } });
    const first = await governor.acquire(100);

    // Act
    first.done(refused({ 'retry-after-ms': '1000' }));

    // Assess
    expect(governor.state()).toMatchObject({ heldUntil: 0, requestsPerMinute: 588 });
  });

  it('takes 98% of (limit - 1) / reset at once from a first refusal that gives the quota, and keeps every place', async () => {
    // Prepare: a sliding window of 10 a second, filled evenly: its newest request is 100 ms old, so it is whole again in 900 ms
    const { governor } = governorOf({ maxInFlight: 8 });
    const first = await governor.acquire(100);

    // Act
    first.done(
      refused({
        'retry-after-ms': '10',
        'x-ratelimit-limit-requests': '10',
        'x-ratelimit-remaining-requests': '0',
        'x-ratelimit-reset-requests': '900ms',
      }),
    );

    // Assess: (10 - 1) / 0.9 s = 10 a second = 600 a minute, paced at 588
    expect(governor.state()).toMatchObject({ maxInFlight: 8, requestsPerMinute: 588 });
  });

  it.each([
    ['without quota headers: what the server accepted until the wait ended', {}, 600],
    [
      'with a slower pace the headers tell: that pace',
      { 'x-ratelimit-limit-requests': '10', 'x-ratelimit-remaining-requests': '0', 'x-ratelimit-reset-requests': '1.5s' },
      352.8,
    ],
  ])('paces after a burst met a limit, %s', async (_case, headers, perMinute) => {
    // Prepare: 16 attempts at once, as a run starts; 10 pass a sliding window of 10 a second, 6 are refused at once, asking 1 s
    const { governor, clock } = governorOf({ maxInFlight: 16 });
    const burst = ask(governor, 16);
    await settle();

    // Act
    for (const permit of burst.slice(10)) permit.done(refused({ 'retry-after-ms': '1000', ...headers }));
    await clock.advance(50);
    for (const permit of burst.slice(0, 10)) permit.done(answered);
    ask(governor, 1);
    await clock.advance(950);

    // Assess: 10 accepted in the 1,000 ms to the wait's end = 600 a minute; (10 - 1) / 1.5 s × 98% = 352.8 a minute
    expect(governor.state().requestsPerMinute).toBeCloseTo(perMinute, 6);
  });
});

describe('RateGovernor: the control loop, round by round', () => {
  /** An attempt's start and whether it was refused. */
  interface Sent {
    readonly at: number;
    readonly refused: boolean;
  }

  /**
   * Sends `count` attempts one after another, each answered 1 ms after it is granted as `outcomeOf` says; the
   * clock moves as the pace asks. Each is added to `sent` when given.
   */
  async function attempts(
    governor: RateGovernor,
    clock: ManualClock,
    count: number,
    outcomeOf: (index: number) => AttemptOutcome,
    sent: Sent[] = [],
  ): Promise<void> {
    for (let index = 0; index < count; index++) {
      const granted: Permit[] = [];
      void governor.acquire(100).then((permit) => granted.push(permit));
      await settle();
      while (granted.length === 0) await clock.advance(Math.max(1, Math.ceil(governor.nextStartAt() - clock.now())));
      const at = clock.now();
      await clock.advance(1);
      const outcome = outcomeOf(index);
      sent.push({ at, refused: outcome.rateLimited === true });
      granted[0]?.done(outcome);
    }
  }

  /** The rate (per minute) let through between the first refusal's answer (1 ms after it started) and the last refusal's start. */
  function grantedBetweenRefusals(sent: readonly Sent[]): number {
    const refusals = sent.filter((attempt) => attempt.refused);
    const from = (refusals[0]?.at ?? 0) + 1;
    const to = refusals.at(-1)?.at ?? 0;
    const through = sent.filter((attempt) => !attempt.refused && attempt.at > from && attempt.at <= to).length;
    return (through * 60_000) / (to - from);
  }

  /**
   * A round of 24 in which a quarter is refused, asking 1 ms, a little more often after a refusal than after an
   * answer (two in six, four in eighteen): refusals at random, which do not follow the timing of what was let
   * through as a limit's do.
   */
  const quarterRefused = (index: number): AttemptOutcome =>
    [0, 1, 6, 7, 12, 18].includes(index % 24) ? refused({ 'retry-after-ms': '1' }) : answered;

  /** A pace of 588 a minute told by a first refusal, which with 23 answers makes a round that raises it 5%, to 617.4. */
  async function pacedGovernor(sent: Sent[] = []): Promise<{ governor: RateGovernor; clock: ManualClock }> {
    const { governor, clock } = governorOf({ maxInFlight: 1 });
    const told = { 'x-ratelimit-limit-requests': '11', 'x-ratelimit-remaining-requests': '0', 'x-ratelimit-reset-requests': '1s' };
    await attempts(governor, clock, 1, () => refused(told), sent);
    await attempts(governor, clock, 23, () => answered, sent);
    return { governor, clock };
  }

  it('cuts the pace to 95% of the rate let through between refusals after a round refused more than 5%, and undoes the cut when the next round refuses as much: refusals at random do not ratchet it down', async () => {
    // Prepare
    const sent: Sent[] = [];
    const { governor, clock } = await pacedGovernor(sent);
    const before = governor.state().requestsPerMinute ?? 0;

    // Act: a round with 25% refused, then another, then ten more
    await attempts(governor, clock, 24, quarterRefused, sent);
    const cut = governor.state().requestsPerMinute ?? 0;
    await attempts(governor, clock, 24, quarterRefused);
    const checked = governor.state();
    await attempts(governor, clock, 240, quarterRefused);

    // Assess: 617.4 a minute cut to 95% of what was let through from the first refusal to the last (41 answers,
    // at 588 and then 617.4 a minute, three in four of the last round's), two thirds of it; the cut undone with a
    // floor of 25%; then 25% within the floor (plus 5%, plus twice 8.8 points of sampling error) raises it 5% a
    // round: 617.4 × 1.05^10 = 1,005.7
    expect(before).toBeCloseTo(617.4, 6);
    expect(cut).toBeCloseTo(0.95 * grantedBetweenRefusals(sent), 6);
    expect(cut / before).toBeGreaterThan(0.6);
    expect(cut / before).toBeLessThan(0.7);
    expect({ pace: checked.requestsPerMinute, floor: checked.refusalFloor }).toEqual({ pace: before, floor: 0.25 });
    expect(governor.state().requestsPerMinute).toBeCloseTo(before * 1.05 ** 10, 6);
  });

  it('cuts to a quarter at most after a round with every attempt refused and none let through since the first: no rate is measured', async () => {
    // Prepare: a configured 600 a minute, paced at 588, where the learnt pace starts
    const { governor, clock } = governorOf({ maxInFlight: 1, limits: { requestsPerMinute: 600 } });

    // Act
    await attempts(governor, clock, 24, () => refused({ 'retry-after-ms': '1' }));

    // Assess: a quarter of about what was sent at 588 a minute
    expect(governor.state().requestsPerMinute).toBeGreaterThan(0.24 * 588);
    expect(governor.state().requestsPerMinute).toBeLessThanOrEqual(0.25 * 600);
  });

  it('goes on cutting while every attempt is refused after answers were let through: a round that lets nothing through is never taken for refusals at random', async () => {
    // Prepare: a pace of 617.4 a minute, learnt from a first refusal and 23 answers
    const { governor, clock } = await pacedGovernor();

    // Act: four rounds with every attempt refused
    const paces: number[] = [];
    for (let round = 0; round < 4; round++) {
      await attempts(governor, clock, 24, () => refused({ 'retry-after-ms': '1' }));
      paces.push(governor.state().requestsPerMinute ?? 0);
    }

    // Assess: each round slower than the one before, the first below the 23 answers' rate over the span from the
    // first refusal (about half the pace), no floor of refusals taken as random
    expect(paces[0]).toBeLessThan(0.5 * 617.4);
    for (let round = 1; round < paces.length; round++) expect(paces[round]).toBeLessThan(paces[round - 1] ?? 0);
    expect(governor.state().refusalFloor).toBe(0);
  });

  it("measures a token bucket between its refusals: a pace five times too fast is cut to 95% of the bucket's rate, its burst left out", async () => {
    // Prepare: a configured 3,000 a minute against a bucket of 600 a minute with a burst of 10, answering at once
    const { governor, clock } = governorOf({ maxInFlight: 1, limits: { requestsPerMinute: 3_000 } });
    const bucket = new TokenBucket({ perMinute: 600, burst: 10, headers: false }, () => clock.now());
    const server = (): AttemptOutcome => {
      const admission = bucket.admit();
      return admission.admitted ? answered : refused({ 'retry-after-ms': String(admission.waitMs) });
    };

    // Act: a round and the next (the cut checked)
    await attempts(governor, clock, 48, server);

    // Assess: 570 a minute, within a request over the span of about 2 s; what was accepted over the first round,
    // its burst of 10 included, was about 900 a minute
    expect(governor.state().requestsPerMinute).toBeGreaterThan(0.95 * (600 - 30));
    expect(governor.state().requestsPerMinute).toBeLessThan(0.95 * (600 + 30));
  });

  it('brings a pace that the headers tell too fast down to what the server accepts, when refusals go on at it', async () => {
    // Prepare: a round of answers; then the account's quota of 10 a second (sliding) is spent by others when
    // this process meets it, and its refusals say 101 requests are whole again in 1 s: 5,880 a minute at 98%
    const { governor, clock } = governorOf({ maxInFlight: 1 });
    await attempts(governor, clock, 24, () => answered);
    const window = new RequestWindow({ requests: 10, windowMs: 1_000, headers: false }, () => clock.now());
    for (let other = 0; other < 10; other++) window.admit();
    const told = { 'x-ratelimit-limit-requests': '101', 'x-ratelimit-remaining-requests': '0', 'x-ratelimit-reset-requests': '1s' };
    const server = (): AttemptOutcome => {
      const admission = window.admit();
      return admission.admitted ? answered : refused({ ...told, 'retry-after-ms': String(admission.waitMs) });
    };

    // Act
    await attempts(governor, clock, 1, server);
    const first = governor.state().requestsPerMinute;
    await attempts(governor, clock, 240, server);

    // Assess: nothing accepted yet to check the told pace against, so it stands, until the rounds cut it to
    // the 600 a minute the server accepts
    expect(first).toBeCloseTo(5_880, 6);
    expect(governor.state().requestsPerMinute).toBeGreaterThan(540);
    expect(governor.state().requestsPerMinute).toBeLessThan(660);
  });

  it('comes back up once the refusals stop: the floor eases off, and the pace, past where it was cut, doubles its raise each round', async () => {
    // Prepare: a floor of 25% and a pace of 617.4 a minute, as in the first test
    const { governor, clock } = await pacedGovernor();
    await attempts(governor, clock, 48, quarterRefused);
    const before = governor.state();

    // Act: eight rounds without a refusal
    await attempts(governor, clock, 8 * 24, () => answered);

    // Assess: the floor at 25% × (7/8)^8 = 8.6%; the pace raised 5%, 10%, 20%, 40%, 80% and 100% three times: 14.3 times
    expect(before).toMatchObject({ requestsPerMinute: 617.4, refusalFloor: 0.25 });
    expect(governor.state().refusalFloor).toBeCloseTo(0.25 * 0.875 ** 8, 6);
    expect(governor.state().requestsPerMinute).toBeCloseTo(617.4 * 1.05 * 1.1 * 1.2 * 1.4 * 1.8 * 2 ** 3, 6);
  });
});

describe('RateGovernor: waiting', () => {
  it("rejects a waiting attempt with its signal's reason, and grants the next in its place", async () => {
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
    expect(governor.state()).toMatchObject({ maxInFlight: 16, requestsPerMinute: 294 });
  });
});
