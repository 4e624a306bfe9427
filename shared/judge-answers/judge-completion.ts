import type { z } from 'zod';
import type { BatchRequest } from '../schema/batch-request.js';
import type { CallDeadlineOptions } from './call-deadline.js';
import type { ChatMessage } from './output-modes.js';

/**
 * The contract every judge transport keeps, whatever wire it speaks (the
 * openai SDK for OpenAI and Azure OpenAI, the Converse API for Amazon
 * Bedrock): one judgment in, its output or an error value out, with what it
 * cost. The judge service, the cache and the pool see only this.
 */

export interface TokenUsage {
  inputTokens: number;
  outputTokens: number;
}

/**
 * What one judgment cost: tokens, and the HTTP requests beyond its first (the
 * SDK's retries, rate-limited requests sent again, requests sent again in a
 * lower output mode or without a refused parameter, the repair request), so
 * that one plus the retries is every request the server saw.
 */
export interface CallCost {
  readonly usage: TokenUsage;
  readonly retries: number;
  /** Requests the server refused as over its rate limit (counted among the retries when sent again). */
  readonly rateLimited: number;
}

/** Where a judgment's answers came from, for its price: a provider's batch job costs less than the same requests online. */
export type Pricing = 'online' | 'batch';

/**
 * One judge call's answer, or why there is none, with what the call cost
 * either way. Not a Result: the cost and the pricing travel on both arms (a
 * failed call has spent tokens too), and the failure arm also holds a
 * judgment waiting for a batch job's answer, which is no failure.
 */
export type JudgeCompletion =
  | ({
      ok: true;
      output: unknown;
      /** The model the server says answered; it may differ from the one asked for (an alias, a gateway). */
      reportedModel: string | undefined;
      /** The backend configuration that answered, as the server names it (OpenAI's `system_fingerprint`); absent when it names none. */
      systemFingerprint?: string;
      /** Absent: online. */
      pricing?: Pricing;
    } & CallCost)
  | ({
      ok: false;
      error: string;
      transient: boolean;
      /** The deadline came while the server's rate limit held the judgment. */
      heldByRateLimit?: true;
      /** The judgment waits for this request's answer from a batch job (shared/batch-providers/batch-replay.ts): not a failure; it costs nothing yet. */
      awaitingBatch?: BatchRequest;
      pricing?: Pricing;
    } & CallCost);

/** Which run a judgment is for, and who asks it: what a batch judgment needs to find its answer and to name its request. */
export interface BatchContext {
  readonly runId: string;
  readonly judge: string;
  /** The sample number of a repeated judgment (0 for the first). */
  readonly sample: number;
  /** The case's round is judged online where no job answered (its requests were below the provider's minimum a job: `below_minimum: online`). */
  readonly online?: true;
  /** run.max_judge_cost was reached: a line the jobs did not run is not judged online, and its judgment ends in error. */
  readonly onlineRefused?: true;
}

export interface CompletionRequest {
  readonly messages: readonly ChatMessage[];
  readonly schema: z.ZodType;
  /** Name of the schema (and of the tool in tool mode): letters, digits, _ and -. */
  readonly schemaName: string;
  /** Set by a run whose judges answer through batch jobs; online clients ignore it. */
  readonly batch?: BatchContext;
}

export interface JudgeCompleter {
  complete(request: CompletionRequest, limits?: CallDeadlineOptions): Promise<JudgeCompletion>;
  /** Starts loading what its first judgment needs (a client's code), so that judgment does not wait for it. */
  prepare?(): void;
}

/**
 * A failure after which no call of the client can succeed (a refused key, a
 * spent quota, denied model access): once recorded, every later call fails
 * with it at once, without a request.
 */
export class FatalFailure {
  private error: string | undefined;

  get current(): string | undefined {
    return this.error;
  }

  record(error: string): void {
    this.error ??= error;
  }
}
