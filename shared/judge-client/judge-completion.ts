import type { z } from 'zod';
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

export type JudgeCompletion =
  | ({ ok: true; output: unknown; /** The model the server says answered; it may differ from the one asked for (an alias, a gateway). */ reportedModel: string | undefined } & CallCost)
  | ({ ok: false; error: string; transient: boolean; /** The deadline came while the server's rate limit held the judgment. */ heldByRateLimit?: true } & CallCost);

export interface CompletionRequest {
  readonly messages: readonly ChatMessage[];
  readonly schema: z.ZodType;
  /** Name of the schema (and of the tool in tool mode): letters, digits, _ and -. */
  readonly schemaName: string;
}

export interface JudgeCompleter {
  complete(request: CompletionRequest, limits?: CallDeadlineOptions): Promise<JudgeCompletion>;
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
