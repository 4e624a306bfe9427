import type { BatchInputLine, BatchLimits, BatchValidationError } from './batch-input.js';
import type { WrittenResult } from './broken-lines.js';
import type { LineFaults, LineOutcome } from './line-answers.js';
import type { OutputFaults } from './output-file.js';
import type { ProviderTextFaults } from './provider-text.js';

/**
 * What a batch of the test server (batch-job.ts) is given: the faults it
 * runs under, what it asks of its server while it steps, and what its
 * create asked for.
 */

/** A validation error to force; param and line default to null. */
export type ForcedValidationError = Pick<BatchValidationError, 'code' | 'message'> & Partial<Pick<BatchValidationError, 'param' | 'line'>>;

export interface JobFaults extends LineFaults, OutputFaults, ProviderTextFaults {
  /** The batch expires once this many of its lines are done: those stay in the output, the rest go to the error file as batch_expired. */
  readonly expireAfterLines?: number;
  /** Every batch validated under the plan fails with these errors, whatever its lines. */
  readonly validationErrors?: readonly ForcedValidationError[];
  /** A batch fails validation with token_limit_exceeded, as OpenAI fails it, when its prompt tokens and those of the unfinished batches of its model pass this. */
  readonly enqueuedTokenLimit?: number;
  /**
   * The batch fails once this many of its lines are done, with lines left, as OpenAI fails a batch
   * mid-way: `failed`, `failed_at` set, one server_error in `errors.data`, its output (and error) file
   * holding the lines it answered and request_counts counting them. The lines not run are in no file.
   */
  readonly failAfterLines?: number;
  /**
   * When a batch finishes, its next n answers to `GET batches/{id}` carry `output_file_id` and
   * `error_file_id` null (the API has not named its files yet), then the real ids. The list and
   * settle() show them null meanwhile too, without counting.
   */
  readonly outputFileLagPolls?: number;
}

/** What a job needs from its server while it steps. */
export interface JobContext {
  /** Milliseconds since the epoch. */
  now(): number;
  inputBytes(fileId: string): Buffer | undefined;
  readonly limits: BatchLimits;
  faults(): JobFaults;
  answer(line: BatchInputLine, apiKey: string | undefined): LineOutcome;
  /** The prompt tokens of the other unfinished batches of this model. */
  enqueuedTokens(model: string, exceptBatchId: string): number;
  /** Stores a file of purpose batch_output and returns its id. */
  writeFile(filename: string, text: string): string;
  /** Told what each output file holds: which lines its faults broke, what it bills. */
  wroteOutput(batchId: string, written: WrittenResult): void;
  readonly linesPerStep: number | undefined;
  readonly outputOrder: 'reversed' | 'input';
}

export interface JobRequest {
  readonly inputFileId: string;
  readonly endpoint: string;
  /** The urls a line may name for this endpoint. */
  readonly lineUrls: readonly string[];
  readonly completionWindow: string;
  readonly metadata: Readonly<Record<string, string>> | null;
  /** The key `POST batches` was sent with, which its messages echo under echoKey. */
  readonly apiKey: string | undefined;
  /** expires_at is created_at plus this. */
  readonly windowSeconds: number;
}
