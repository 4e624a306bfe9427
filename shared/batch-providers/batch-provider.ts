import type { BatchAnswer, BatchRequest } from '../schema/batch-request.js';
import type { TokenUsage } from '../judge-answers/judge-completion.js';

/**
 * A provider's batch API, as a batch-judged run uses it: create a job from
 * request lines, look at it, read its answers by request id, stop it. The
 * rounds of a run (shared/batch-judging/) know only this; the wire is the adapter's:
 * OpenAI's and Azure OpenAI's files and batches (openai-batch-provider.ts),
 * Amazon Bedrock's model invocation jobs (bedrock-batch-provider.ts).
 */
export interface BatchLimits {
  /** The most requests one job may hold. */
  readonly maxRequests: number;
  /** The most bytes one job's input may have. */
  readonly maxBytes: number;
  /** The fewest requests a job may hold: Bedrock's minimum records per job (a quota of the model); 1 elsewhere. */
  readonly minRequests: number;
}

/** What a job is for, besides its lines: the run whose prefix holds its files, and the one model its requests ask. */
export interface BatchJobTarget {
  readonly runId: string;
  readonly model: string;
}

/** A job the provider has: its id, and when its window closes when the provider says. */
export interface CreatedJob {
  readonly id: string;
  readonly expiresAt?: Date | undefined;
}

/**
 * Where a job is: `pending` (accepted, not started: validating, submitted,
 * scheduled), `running` (in progress, finalizing, being stopped), `finished`
 * (its answers can be read: completed, expired, cancelled, stopped, partly
 * completed), `failed` (nothing ran: it failed validation).
 */
export type BatchPhase = 'pending' | 'running' | 'finished' | 'failed';

export interface BatchJobStatus {
  /** The provider's own word for the state (`in_progress`, `InProgress`), shown as it comes. */
  readonly state: string;
  readonly phase: BatchPhase;
  /** The provider's counts of the job's requests, when it gives them. */
  readonly counts: { readonly total: number; readonly completed: number; readonly failed: number } | undefined;
  /** Why a job failed validation: the provider's errors, with the input line they concern when it says. */
  readonly errors: readonly BatchJobError[];
  /** When the provider's window for the job closes (OpenAI's `expires_at`, Bedrock's `jobExpirationTime`), when it says. */
  readonly expiresAt?: Date | undefined;
  /**
   * The job is finished by its state, its counts say lines ran, yet it names
   * no file to read them from (yet): a provider may name its output a few
   * looks later, so the answers are not read until then.
   */
  readonly filesPending?: boolean | undefined;
}

export interface BatchJobError {
  readonly code: string;
  readonly message: string;
  /** 1-based line of the job's input. */
  readonly line?: number | undefined;
}

export interface BatchProvider {
  /** For messages: `OpenAI`, `Azure OpenAI deployment judge-batch`, `Amazon Bedrock (us-east-1)`. */
  readonly name: string;
  readonly limits: BatchLimits;
  /** One request as a line of the job's input (JSON, no line break). */
  line(request: BatchRequest): string;
  /** A job created earlier under `key` by a process that died before it recorded the job's id; undefined when there is none. */
  find(key: string): Promise<CreatedJob | undefined>;
  /** Creates a job from input lines (JSONL, each from `line`), named `key`. */
  create(key: string, input: string, target: BatchJobTarget): Promise<CreatedJob>;
  status(jobId: string): Promise<BatchJobStatus>;
  /**
   * A finished job's lines, in whatever order the provider wrote them: each
   * an answer with its request id, or a line that cannot be read (not JSON,
   * cut off, an error body under status 200), with its request id when the
   * line names one. Every text in them from the provider is redacted.
   */
  answers(jobId: string): AsyncIterable<BatchLine>;
  cancel(jobId: string): Promise<void>;
}

/**
 * One line of a finished job's output or error file. `billed` is what the
 * provider counted for it (its answer's usage), as far as the line says:
 * a line read or not, it was paid for.
 */
export type BatchLine =
  | {
      readonly kind: 'answer';
      readonly requestId: string;
      readonly answer: BatchAnswer['answer'];
      readonly billed?: TokenUsage | undefined;
    }
  | {
      readonly kind: 'unreadable';
      readonly requestId?: string | undefined;
      /** What is wrong with it, in a few words (`not JSON`, `cut off`, `an error body under status 200`). */
      readonly reason: UnreadableReason;
      readonly billed?: TokenUsage | undefined;
    };

/** Why a line of a job's files is no answer; the counts of a job's record are kept under these. */
export type UnreadableReason =
  | 'not JSON'
  | 'cut off'
  | 'not a result line'
  | 'an error body under status 200'
  | 'unknown id'
  | 'duplicate id';

/**
 * A call to the provider's batch API that failed: `transient` when it may
 * pass on a later look (a 5xx, a 429, a timeout, a network error, a file
 * the job names that is not there yet), else the provider refused it for
 * good (a revoked key, a job it does not know). The message is redacted.
 */
export class BatchProviderError extends Error {
  override readonly name = 'BatchProviderError';

  constructor(
    message: string,
    readonly transient: boolean,
    /** The wait the provider asked for (retry-after), when it did. */
    readonly retryAfterMs?: number,
    /** No connection could be made (refused, a name that does not resolve, none opened in time): the provider may not be there at all. */
    readonly cannotReach = false,
  ) {
    super(message);
  }
}
