import { AcceptedRate } from './accepted-rate.js';
import { SYSTEM_CLOCK, type AttemptOutcome, type GovernorClock, type GovernorSettings, type GovernorState, type Permit } from './governor-types.js';
import { PACE_MARGIN, Paces, quotaPace } from './paces.js';
import { readRateHeaders } from './rate-headers.js';

export type { AttemptOutcome, GovernorClock, GovernorSettings, GovernorState, Permit, RateLimits } from './governor-types.js';
export { SYSTEM_CLOCK } from './governor-types.js';

/**
 * One judge server's rate limit as the calls of a process meet it. Every HTTP
 * attempt first asks for a permit (`acquire`) and hands it back with what
 * came of it (`permit.done`). The governor grants a permit when:
 *
 * - fewer attempts than its window are in flight. The window starts at the
 *   callers' concurrency, halves on a rate-limit refusal that says nothing of
 *   the quota (once for the attempts that were in flight together, never
 *   below 1) and grows back by one for every window's worth of answers
 *   (AIMD); a refusal that gives the quota sets the pace instead (below),
 *   which is what binds a rate limit;
 * - no hold is on: a refusal holds every new attempt until the wait it asks
 *   for (`retry-after-ms`, `Retry-After`, else the quota's reset time, else a
 *   doubling backoff from 0.5 s to 8 s), cut to `maxHoldMs`;
 * - the pace allows it (paces.ts): configured requests and tokens per minute
 *   are spaced evenly from the first attempt, at 98% of the rate given: at
 *   exactly the limit, a few milliseconds of delay on the way (the network,
 *   the server's event loop) put one request too many in a short window.
 *   Without them, a refusal whose headers give the quota and its reset time
 *   sets the pace to 98% of what the server allows, (limit - 1) / reset:
 *   exact both for a token bucket and for a sliding window that was being
 *   filled evenly (the window's newest request is one spacing old). A
 *   refusal without them paces at 90% of the rate the server accepted over
 *   the last second. A learnt pace grows by 0.2% with every answer that does
 *   not say the quota is used up (remaining 0), so it comes back up to a
 *   limit that was raised or underestimated, until the next refusal sets it
 *   again.
 *
 * Tokens are estimated before the attempt and corrected by the answer's
 * usage. The governor knows nothing of HTTP clients or SDKs: the openai
 * transport and any other (Bedrock) report outcomes in these terms.
 */
const FIRST_BACKOFF_MS = 500;
const LONGEST_BACKOFF_MS = 8_000;
/** The share of the rate the server accepted that is paced at when it says nothing of its quota. */
const ACCEPTED_RATE_SHARE = 0.9;

interface Waiter {
  readonly tokens: number;
  readonly grant: (permit: Permit) => void;
  readonly signal: AbortSignal | undefined;
  readonly onAbort: () => void;
}

export class RateGovernor {
  private window: number;
  private inFlight = 0;
  private heldUntil = 0;
  private refusalsInARow = 0;
  /** Attempts started before this were in flight at the last halving, so their refusals do not halve again. */
  private decreasedAt = Number.NEGATIVE_INFINITY;
  private readonly paces = new Paces();
  private readonly accepted = new AcceptedRate();
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
    this.window = settings.maxInFlight;
    this.clock = settings.clock ?? SYSTEM_CLOCK;
    this.adopt(settings);
  }

  /**
   * Takes in another caller's settings: a larger concurrency raises the
   * ceiling (and the window with it), a longer hold cap lengthens it, and a
   * configured rate lower than the one in force (or the first one) slows the
   * pace. Two configs that disagree about one server's limit get the lower.
   */
  adopt(settings: GovernorSettings): void {
    checkMaxInFlight(settings.maxInFlight);
    if (settings.maxInFlight > this.maxInFlight) {
      this.window += settings.maxInFlight - this.maxInFlight;
      this.maxInFlight = settings.maxInFlight;
    }
    this.maxHoldMs = Math.max(this.maxHoldMs, settings.maxHoldMs);
    this.paces.configure('requests', settings.limits?.requestsPerMinute);
    this.paces.configure('tokens', settings.limits?.tokensPerMinute);
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
      window: this.window,
      inFlight: this.inFlight,
      heldUntil: this.heldUntil,
      requestsPerMinute: this.paces.perMinute('requests'),
      tokensPerMinute: this.paces.perMinute('tokens'),
    };
  }

  private pump(): void {
    for (;;) {
      const head = this.queue[0];
      if (head === undefined || this.inFlight >= Math.floor(this.window)) return;
      const now = this.clock.now();
      const readyAt = this.nextStartAt();
      if (readyAt > now) return this.wakeAt(readyAt);
      this.queue.shift();
      head.signal?.removeEventListener('abort', head.onAbort);
      head.grant(this.grant(head.tokens, now));
    }
  }

  private grant(tokens: number, startedAt: number): Permit {
    this.inFlight++;
    this.accepted.attempted(startedAt);
    this.paces.take(tokens, startedAt);
    let settled = false;
    return {
      done: (outcome) => {
        if (settled) return;
        settled = true;
        this.inFlight--;
        this.settle(outcome, tokens, startedAt);
        this.pump();
      },
    };
  }

  private settle(outcome: AttemptOutcome, tokens: number, startedAt: number): void {
    const now = this.clock.now();
    if (outcome.rateLimited === true) return this.refused(outcome, tokens, startedAt, now);
    if (outcome.status === undefined) return;
    if (outcome.tokens !== undefined) this.paces.giveBackTokens(tokens - outcome.tokens, now);
    if (outcome.status >= 400) return;
    this.refusalsInARow = 0;
    this.window = Math.min(this.maxInFlight, this.window + 1 / Math.max(1, this.window));
    const remaining = outcome.headers === undefined ? undefined : readRateHeaders(outcome.headers, now).requests.remaining;
    if (remaining !== 0) this.paces.grow();
  }

  private refused(outcome: AttemptOutcome, tokens: number, startedAt: number, now: number): void {
    this.accepted.refused(startedAt);
    const said = outcome.headers === undefined ? { requests: {}, tokens: {} } : readRateHeaders(outcome.headers, now);
    const kind = said.tokens.remaining !== undefined && said.tokens.remaining < tokens ? 'tokens' : 'requests';
    const backoff = Math.min(LONGEST_BACKOFF_MS, FIRST_BACKOFF_MS * 2 ** this.refusalsInARow);
    const wait = 'waitMs' in said && said.waitMs !== undefined ? said.waitMs : (said[kind].resetMs ?? backoff);
    this.refusalsInARow++;
    this.heldUntil = Math.max(this.heldUntil, now + Math.min(wait, this.maxHoldMs));
    const told = quotaPace(said[kind], kind === 'tokens' ? tokens : 1);
    if (told !== undefined) return this.paces.learn(kind, told * PACE_MARGIN);
    if (startedAt > this.decreasedAt) {
      this.window = Math.max(1, Math.floor(this.window / 2));
      this.decreasedAt = now;
    }
    const accepted = this.accepted.perMinute(now);
    this.paces.learn('requests', accepted === undefined ? undefined : accepted * ACCEPTED_RATE_SHARE);
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
  if (!Number.isInteger(maxInFlight) || maxInFlight < 1) throw new RangeError(`Expected maxInFlight to be an integer from 1 up, got ${maxInFlight}`);
}
