import type { Result } from '../schema/result.js';
import type { Verdict } from './judge-definition.js';

/** Why a judgment has no verdict. */
export interface JudgmentFailure {
  readonly message: string;
  /** Asking again later may give a verdict: a timeout, a 429, a 5xx, a batch answer not in yet. */
  readonly transient: boolean;
  /** The deadline came while the judge server's rate limit held the judgment. */
  readonly heldByRateLimit?: true;
}

/** One judgment of one item (a chunk, or an engine's whole output): its verdict, or why there is none. */
export type JudgmentOutcome = Result<Verdict, JudgmentFailure>;
