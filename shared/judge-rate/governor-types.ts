import type { HeaderReader } from './rate-headers.js';

/** Configured limits of one server and model. */
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
  /** The most attempts in flight at once: the callers' concurrency. */
  readonly maxInFlight: number;
  /** Configured limits, paced from the first attempt; what is learnt never goes faster. */
  readonly limits?: RateLimits | undefined;
  /** The longest hold a server's wait may impose. */
  readonly maxHoldMs: number;
  readonly clock?: GovernorClock;
}

/** What came of one attempt, in the terms of any transport (the openai SDK's fetch, a Bedrock client). */
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
  readonly maxInFlight: number;
  readonly inFlight: number;
  readonly heldUntil: number;
  /** The pace in force (configured or learnt, the slower), undefined when unpaced. */
  readonly requestsPerMinute: number | undefined;
  readonly tokensPerMinute: number | undefined;
  /** The share of attempts the server refuses whatever the pace, as last measured (learnt-request-pace.ts). */
  readonly refusalFloor: number;
}
