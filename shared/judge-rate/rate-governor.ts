import {
  SYSTEM_CLOCK,
  type AttemptOutcome,
  type GovernorClock,
  type GovernorSettings,
  type GovernorState,
  type Permit,
} from './governor-types.js';
import { PACE_MARGIN, Paces, quotaPace } from './paces.js';
import { readRateHeaders } from './rate-headers.js';
import { LearntRequestPace } from './learnt-request-pace.js';

export type { AttemptOutcome, GovernorClock, GovernorSettings, GovernorState, Permit, RateLimits } from './governor-types.js';
export { SYSTEM_CLOCK } from './governor-types.js';

/** The hold after a refusal that names no wait, doubled for each refusal in a row. */
const FIRST_BACKOFF_MS = 500;
/** The longest such hold. */
const LONGEST_BACKOFF_MS = 8_000;
/** A pace told by a refusal's headers within this factor of the pace in force is the one kept: its refusals hold everyone. */
const TOLD_AS_KEPT = 1.1;

interface Waiter {
  readonly tokens: number;
  readonly grant: (permit: Permit) => void;
  readonly signal: AbortSignal | undefined;
  readonly onAbort: () => void;
}

/**
 * One judge server's rate limit as the calls of a process meet it. Every HTTP
 * attempt first asks for a permit (`acquire`) and hands it back with what
 * came of it (`permit.done`). A permit is granted when fewer than
 * `maxInFlight` attempts are in flight, no hold is on, and every pace allows
 * it (paces.ts: evenly spaced, no burst):
 *
 * - configured requests and tokens per minute (`judge.rate_limit`), paced
 *   from the first attempt at 98%: at exactly the limit, a few milliseconds
 *   of delay on the way put one request too many in a short window;
 * - a requests pace learnt by a control loop over rounds of attempts
 *   (learnt-request-pace.ts), from the configured rate if there is one: a
 *   share refused above 5% in a round cuts it to 95% of the rate the limit
 *   granted between its refusals (granted-rate.ts: a token bucket's burst
 *   and the allowance it saved up left out), once a round, and a round
 *   within 5% raises it; each cut is checked by the next round, and undone
 *   when the refusals did not fall as a rate limit's would and do not
 *   follow the timing of what was let through, their share then kept as a
 *   floor the server refuses at whatever the pace. A
 *   rule per refusal could not tell the two: pacing at 90% of the rate
 *   accepted at each refusal made an overloaded gateway's 20% of random
 *   429s slow a 2 s run to 150 s; and the rate accepted over a round, a
 *   burst counted in, made a token bucket's refusals look random, knocking
 *   twice for every answer;
 * - a pace that a refusal's `x-ratelimit-*` headers tell, 98% of (limit - 1)
 *   / reset: taken when slower than the pace in force, and cut by the
 *   rounds like any other when refusals go on at it, since servers read
 *   reset differently (the time to a whole quota makes it exact for a
 *   sliding window filled evenly; for a token bucket of 600 a minute with a
 *   burst of 10 it is 60 times too fast, and 600 times when the reset is
 *   the time to the next free request); a tokens pace is only ever told.
 *
 * A refusal holds every new attempt for the wait it asks (`retry-after-ms`,
 * `Retry-After`, else the quota's reset, else a backoff doubling from 0.5 s
 * to 8 s; at most `maxHoldMs`) when nothing is learnt or configured yet, as
 * a rate limit met in a burst must be waited out, or when its headers give
 * the quota and the pace they tell is the one in force (within 10%): at
 * the end of a hold, the pace spaces the attempts that waited, so they do
 * not all go at once. Any other keeps only its own place in flight for that wait:
 * the pace slows what a limit refuses, and a refusal costs the time of what
 * it refused, not a stop of every call. The attempts in flight are never
 * cut: a judge server's limits are per minute, which the pace meets, and
 * halving them on each refusal was the other half of that collapse.
 *
 * Tokens are estimated before the attempt and corrected by the answer's
 * usage. The governor knows nothing of HTTP clients or SDKs: the openai
 * transport and any other (Bedrock) report outcomes in these terms.
 */
export class RateGovernor {
  private inFlight = 0;
  /** When each place kept by a refusal after its attempt is free again (unordered; expired ones are dropped as the pump runs). */
  private keptPlaces: number[] = [];
  private heldUntil = 0;
  private refusalsInARow = 0;
  private readonly paces = new Paces();
  private readonly learnt = new LearntRequestPace();
  private readonly queue: Waiter[] = [];
  private cancelTimer: (() => void) | undefined;
  private timerAt = Number.POSITIVE_INFINITY;
  private readonly clock: GovernorClock;
  private maxInFlight: number;
  private maxHoldMs: number;

  constructor(settings: GovernorSettings) {
    checkMaxInFlight(settings.maxInFlight);
    this.maxInFlight = settings.maxInFlight;
    this.maxHoldMs = settings.maxHoldMs;
    this.clock = settings.clock ?? SYSTEM_CLOCK;
    this.adopt(settings);
  }

  /** Takes in another caller's settings: a larger concurrency or hold cap raises its own; of two configured rates the lower holds. */
  adopt(settings: GovernorSettings): void {
    checkMaxInFlight(settings.maxInFlight);
    this.maxInFlight = Math.max(this.maxInFlight, settings.maxInFlight);
    this.maxHoldMs = Math.max(this.maxHoldMs, settings.maxHoldMs);
    this.paces.configure('requests', settings.limits?.requestsPerMinute);
    this.paces.configure('tokens', settings.limits?.tokensPerMinute);
    const configured = this.paces.perMinute('requests');
    if (configured !== undefined) this.learnt.startAt(configured);
    this.pump();
  }

  /** Waits for a permit for one attempt of about `tokens` tokens; rejects with the signal's reason when it aborts first. */
  acquire(tokens: number, signal?: AbortSignal): Promise<Permit> {
    signal?.throwIfAborted();
    return new Promise<Permit>((resolve, reject) => {
      const onAbort = (): void => {
        const index = this.queue.indexOf(waiter);
        if (index >= 0) this.queue.splice(index, 1);
        reject(signal?.reason);
        this.pump();
      };
      const waiter: Waiter = { tokens, grant: resolve, signal, onAbort };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.queue.push(waiter);
      this.pump();
    });
  }

  /** The earliest time (epoch ms) a new attempt could start, leaving aside the attempts in flight and waiting. */
  nextStartAt(): number {
    return Math.max(this.heldUntil, this.paces.readyAt(this.clock.now()));
  }

  state(): GovernorState {
    return {
      maxInFlight: this.maxInFlight,
      inFlight: this.inFlight,
      heldUntil: this.heldUntil,
      requestsPerMinute: this.paces.perMinute('requests'),
      tokensPerMinute: this.paces.perMinute('tokens'),
      refusalFloor: this.learnt.refusalFloor,
    };
  }

  private pump(): void {
    for (;;) {
      const head = this.queue[0];
      if (head === undefined) return;
      const now = this.clock.now();
      this.keptPlaces = this.keptPlaces.filter((until) => until > now);
      if (this.inFlight + this.keptPlaces.length >= this.maxInFlight) {
        // Only a kept place comes free by itself; an attempt in flight frees its own when done.
        if (this.keptPlaces.length > 0) this.wakeAt(Math.min(...this.keptPlaces));
        return;
      }
      const readyAt = this.nextStartAt();
      if (readyAt > now) {
        this.wakeAt(readyAt);
        return;
      }
      this.queue.shift();
      head.signal?.removeEventListener('abort', head.onAbort);
      head.grant(this.grant(head.tokens, now));
    }
  }

  private grant(tokens: number, startedAt: number): Permit {
    this.inFlight++;
    const round = this.learnt.attempted(startedAt);
    this.paces.learn('requests', this.learnt.perMinute);
    this.paces.take(tokens, startedAt);
    let settled = false;
    return {
      done: (outcome) => {
        if (settled) return;
        settled = true;
        this.inFlight--;
        const keptMs = this.settle(outcome, tokens, round, startedAt);
        if (keptMs > 0) this.keptPlaces.push(this.clock.now() + keptMs);
        this.paces.learn('requests', this.learnt.perMinute);
        this.pump();
      },
    };
  }

  /** Takes in what came of an attempt; returns how long its place in flight stays taken (a refusal's wait, when it holds no one else). */
  private settle(outcome: AttemptOutcome, tokens: number, round: number, startedAt: number): number {
    const now = this.clock.now();
    if (outcome.rateLimited === true) return this.refused(outcome, tokens, round, startedAt, now);
    if (outcome.status === undefined) return 0;
    if (outcome.tokens !== undefined) this.paces.giveBackTokens(tokens - outcome.tokens, now);
    if (outcome.status >= 400) {
      this.learnt.settled(round, now);
      return 0;
    }
    this.refusalsInARow = 0;
    const remaining = outcome.headers === undefined ? undefined : readRateHeaders(outcome.headers, now).requests.remaining;
    this.learnt.settled(round, now, remaining === 0);
    return 0;
  }

  private refused(outcome: AttemptOutcome, tokens: number, round: number, startedAt: number, now: number): number {
    const said = outcome.headers === undefined ? { requests: {}, tokens: {} } : readRateHeaders(outcome.headers, now);
    const kind = said.tokens.remaining !== undefined && said.tokens.remaining < tokens ? 'tokens' : 'requests';
    const backoff = Math.min(LONGEST_BACKOFF_MS, FIRST_BACKOFF_MS * 2 ** this.refusalsInARow);
    const wait = Math.min(this.maxHoldMs, 'waitMs' in said && said.waitMs !== undefined ? said.waitMs : (said[kind].resetMs ?? backoff));
    this.refusalsInARow++;
    const told = quotaPace(said[kind], kind === 'tokens' ? tokens : 1);
    if (kind === 'tokens' && told !== undefined) this.paces.learn('tokens', told * PACE_MARGIN);
    const first = this.learnt.holdsEveryone;
    const toldRequests = kind === 'requests' && told !== undefined ? told * PACE_MARGIN : undefined;
    this.learnt.refused(round, { startedAt, now, waitMs: wait, told: toldRequests, spent: said[kind].remaining === 0 });
    // Headers that tell a pace far faster than the one in force (a reset read as the time to the next free request) tell no quota to wait for.
    const learnt = this.learnt.perMinute;
    const everyone =
      first || (told !== undefined && (toldRequests === undefined || learnt === undefined || toldRequests <= learnt * TOLD_AS_KEPT));
    if (!everyone) return wait;
    this.heldUntil = Math.max(this.heldUntil, now + wait);
    return 0;
  }

  private wakeAt(time: number): void {
    if (this.timerAt <= time) return;
    this.cancelTimer?.();
    this.timerAt = time;
    // Whole milliseconds, at least one, as timers count: a fraction would wake the pump a hair too early, again and again.
    this.cancelTimer = this.clock.after(Math.max(1, Math.ceil(time - this.clock.now())), () => {
      this.timerAt = Number.POSITIVE_INFINITY;
      this.cancelTimer = undefined;
      this.pump();
    });
  }
}

function checkMaxInFlight(maxInFlight: number): void {
  if (!Number.isInteger(maxInFlight) || maxInFlight < 1)
    throw new RangeError(`Expected maxInFlight to be an integer from 1 up, got ${maxInFlight}`);
}
