import { Pace } from './pace.js';
import { readRateHeaders, type HeaderReader, type QuotaState } from './rate-headers.js';

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
 * - the pace allows it: configured requests and tokens per minute are spaced
 *   evenly from the first attempt (pace.ts), at 98% of the rate given: at
 *   exactly the limit, a few milliseconds of delay on the way (the network,
 *   the server's event loop) put one request too many in a short window.
 *   Without them, a refusal whose headers give the quota and its reset time
 *   sets the pace to 98% of what the server allows, (limit - 1) / reset:
 *   exact both for a token bucket and for a sliding window that was being
 *   filled evenly (the window's newest request is one spacing old). A
 *   refusal without them paces at 90% of the rate the server accepted over
 *   the last second. A learnt pace grows by 0.2% with
 *   every answer that does not say the quota is used up (remaining 0), so it
 *   comes back up to a limit that was raised or underestimated, until the
 *   next refusal sets it again.
 *
 * Tokens are estimated before the attempt and corrected by the answer's
 * usage. The governor knows nothing of HTTP clients or SDKs: the openai
 * transport and any other (Bedrock) report outcomes in these terms.
 */
export interface RateLimits {
  readonly requestsPerMinute?: number | undefined;
  readonly tokensPerMinute?: number | undefined;
}

export interface GovernorClock {
  now(): number;
  /** Calls `fire` after `milliseconds`; returns what cancels it. */
  after(milliseconds: number, fire: () => void): () => void;
}

export const SYSTEM_CLOCK: GovernorClock = {
  now: () => Date.now(),
  after: (milliseconds, fire) => {
    const timer = setTimeout(fire, milliseconds);
    return () => clearTimeout(timer);
  },
};

export interface GovernorSettings {
  /** The most attempts in flight at once: where the window starts and grows back to. */
  readonly maxInFlight: number;
  /** Configured limits, paced from the first attempt; what is learnt never goes faster. */
  readonly limits?: RateLimits | undefined;
  /** The longest hold a server's wait may impose. */
  readonly maxHoldMs: number;
  readonly clock?: GovernorClock;
}

export interface AttemptOutcome {
  /** The HTTP status; undefined when no answer came (a network failure, an abort). */
  readonly status?: number;
  readonly headers?: HeaderReader;
  /** A refusal that a wait cures (a 429 rate limit, a throttling error); a spent quota is not one. */
  readonly rateLimited?: boolean;
  /** The tokens the server counted for the attempt, when its answer says. */
  readonly tokens?: number;
}

export interface Permit {
  /** Hands the permit back; later calls are ignored. */
  done(outcome: AttemptOutcome): void;
}

export interface GovernorState {
  readonly window: number;
  readonly inFlight: number;
  readonly heldUntil: number;
  /** The pace in force (configured or learnt, the slower), undefined when unpaced. */
  readonly requestsPerMinute: number | undefined;
  readonly tokensPerMinute: number | undefined;
}

interface Waiter {
  readonly tokens: number;
  readonly grant: (permit: Permit) => void;
  readonly signal: AbortSignal | undefined;
  readonly onAbort: () => void;
}

const FIRST_BACKOFF_MS = 500;
const LONGEST_BACKOFF_MS = 8_000;
/** How far back the accepted rate is measured when a refusal says nothing of the quota. */
const ACCEPTED_RATE_SPAN_MS = 1_000;
/** A learnt pace's growth with each answer: about 10% over 50 answers. */
const LEARNT_PACE_GROWTH = 1.002;
/** The share of a known limit that is paced at: the room left for jitter on the way to the server. */
const PACE_MARGIN = 0.98;

export class RateGovernor {
  private window: number;
  private inFlight = 0;
  private heldUntil = 0;
  private refusalsInARow = 0;
  /** Attempts started before this were in flight at the last halving, so their refusals do not halve again. */
  private decreasedAt = Number.NEGATIVE_INFINITY;
  private readonly configured: { requests?: Pace; tokens?: Pace } = {};
  private readonly learnt: { requests?: Pace; tokens?: Pace } = {};
  /** Start times of recent attempts, and of those among them the server refused. */
  private readonly started: number[] = [];
  private readonly refusedStarts: number[] = [];
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
    const { requestsPerMinute, tokensPerMinute } = settings.limits ?? {};
    this.configure('requests', requestsPerMinute);
    this.configure('tokens', tokensPerMinute);
    this.pump();
  }

  private configure(kind: 'requests' | 'tokens', perMinute: number | undefined): void {
    if (perMinute === undefined) return;
    const paced = perMinute * PACE_MARGIN;
    const pace = this.configured[kind];
    if (pace === undefined) this.configured[kind] = new Pace(paced);
    else if (paced < pace.perMinute) pace.perMinute = paced;
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
    return Math.max(this.heldUntil, ...this.paces().map(({ pace }) => pace.readyAt(this.clock.now())));
  }

  state(): GovernorState {
    return {
      window: this.window,
      inFlight: this.inFlight,
      heldUntil: this.heldUntil,
      requestsPerMinute: slower(this.configured.requests, this.learnt.requests),
      tokensPerMinute: slower(this.configured.tokens, this.learnt.tokens),
    };
  }

  private paces(): { kind: 'requests' | 'tokens'; pace: Pace }[] {
    const all: { kind: 'requests' | 'tokens'; pace: Pace | undefined }[] = [
      { kind: 'requests', pace: this.configured.requests },
      { kind: 'requests', pace: this.learnt.requests },
      { kind: 'tokens', pace: this.configured.tokens },
      { kind: 'tokens', pace: this.learnt.tokens },
    ];
    return all.flatMap((entry) => (entry.pace === undefined ? [] : [{ kind: entry.kind, pace: entry.pace }]));
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
    this.started.push(startedAt);
    forgetBefore(this.started, startedAt - ACCEPTED_RATE_SPAN_MS);
    for (const { kind, pace } of this.paces()) pace.take(kind === 'requests' ? 1 : tokens, startedAt);
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
    if (outcome.tokens !== undefined) {
      for (const { kind, pace } of this.paces()) if (kind === 'tokens') pace.giveBack(tokens - outcome.tokens, now);
    }
    if (outcome.status < 400) {
      this.refusalsInARow = 0;
      this.window = Math.min(this.maxInFlight, this.window + 1 / Math.max(1, this.window));
      const learnt = this.learnt.requests;
      const remaining = outcome.headers === undefined ? undefined : readRateHeaders(outcome.headers, now).requests.remaining;
      if (learnt !== undefined && remaining !== 0) learnt.perMinute = learnt.perMinute * LEARNT_PACE_GROWTH;
    }
  }

  private refused(outcome: AttemptOutcome, tokens: number, startedAt: number, now: number): void {
    this.refusedStarts.push(startedAt);
    forgetBefore(this.refusedStarts, now - ACCEPTED_RATE_SPAN_MS);
    const said = outcome.headers === undefined ? { requests: {}, tokens: {} } : readRateHeaders(outcome.headers, now);
    const tokensShort = said.tokens.remaining !== undefined && said.tokens.remaining < tokens;
    const quota: QuotaState = tokensShort ? said.tokens : said.requests;
    const backoff = Math.min(LONGEST_BACKOFF_MS, FIRST_BACKOFF_MS * 2 ** this.refusalsInARow);
    const wait = 'waitMs' in said && said.waitMs !== undefined ? said.waitMs : (quota.resetMs ?? backoff);
    this.refusalsInARow++;
    this.heldUntil = Math.max(this.heldUntil, now + Math.min(wait, this.maxHoldMs));
    const told = tokensShort ? paceOf(said.tokens, tokens) : paceOf(said.requests, 1);
    if (told !== undefined) return this.learn(tokensShort ? 'tokens' : 'requests', told * PACE_MARGIN);
    if (startedAt > this.decreasedAt) {
      this.window = Math.max(1, Math.floor(this.window / 2));
      this.decreasedAt = now;
    }
    this.learn('requests', this.acceptedRate(now));
  }

  /** 90% of the requests a minute the server accepted over the last second (those started then and not refused), when it accepted a few. */
  private acceptedRate(now: number): number | undefined {
    forgetBefore(this.started, now - ACCEPTED_RATE_SPAN_MS);
    forgetBefore(this.refusedStarts, now - ACCEPTED_RATE_SPAN_MS);
    const accepted = this.started.length - this.refusedStarts.length;
    return accepted < 2 ? undefined : 0.9 * accepted * (60_000 / ACCEPTED_RATE_SPAN_MS);
  }

  private learn(kind: 'requests' | 'tokens', perMinute: number | undefined): void {
    if (perMinute === undefined || !(perMinute > 0)) return;
    const pace = this.learnt[kind];
    if (pace === undefined) this.learnt[kind] = new Pace(perMinute);
    else pace.perMinute = perMinute;
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

/** Drops the times (oldest first) at or before `time`. */
function forgetBefore(times: number[], time: number): void {
  while (times.length > 0 && (times[0] ?? time) <= time) times.shift();
}

function checkMaxInFlight(maxInFlight: number): void {
  if (!Number.isInteger(maxInFlight) || maxInFlight < 1) throw new RangeError(`Expected maxInFlight to be an integer from 1 up, got ${maxInFlight}`);
}

/** The per-minute pace a full quota allows: (limit - this attempt's cost) over the time until it is whole again. */
function paceOf(quota: QuotaState, cost: number): number | undefined {
  if (quota.limit === undefined || quota.resetMs === undefined || !(quota.resetMs > 0) || quota.limit <= cost) return undefined;
  return ((quota.limit - cost) * 60_000) / quota.resetMs;
}

function slower(...paces: (Pace | undefined)[]): number | undefined {
  const rates = paces.flatMap((pace) => (pace === undefined ? [] : [pace.perMinute]));
  return rates.length === 0 ? undefined : Math.min(...rates);
}
