import type OpenAI from 'openai';
import { estimatePromptTokens, parseChatRequest } from '../chat-completion-answer.js';
import { readBatchInput, type BatchInputLine, type BatchLimits, type BatchValidationError } from './batch-input.js';
import type { LineFaults, LineOutcome } from './line-answers.js';

/**
 * One batch and its life, one step at a time: validating → in_progress
 * (its lines answered a share per step, so request_counts grow between
 * polls) → finalizing → completed, or failed (validation), expired (a fault:
 * the window closed with lines not run) or cancelling → cancelled. The steps
 * are driven from outside (a poll, advance(), a timer), so a test sees every
 * intermediate state deterministically.
 */
export type Batch = OpenAI.Batches.Batch;
export type BatchStatus = Batch['status'];
type Stamp = `${'in_progress' | 'finalizing' | 'completed' | 'failed' | 'expired' | 'cancelling' | 'cancelled'}_at`;
/** The batch as the API sends it: the SDK types these fields as optional, the API sends null until they are known. */
export type BatchObject = Omit<Batch, Stamp | 'output_file_id' | 'error_file_id' | 'errors'> &
  Record<Stamp, number | null> & { output_file_id: string | null; error_file_id: string | null; errors: Batch['errors'] | null };
/** A validation error to force; param and line default to null. */
export type ForcedValidationError = Pick<BatchValidationError, 'code' | 'message'> & Partial<Pick<BatchValidationError, 'param' | 'line'>>;
const STAMPS: readonly Stamp[] = [
  'in_progress_at',
  'finalizing_at',
  'completed_at',
  'failed_at',
  'expired_at',
  'cancelling_at',
  'cancelled_at',
];

export interface JobFaults extends LineFaults {
  /** The batch expires once this many of its lines are done: those stay in the output, the rest go to the error file as batch_expired. */
  readonly expireAfterLines?: number;
  /** Every batch validated under the plan fails with these errors, whatever its lines. */
  readonly validationErrors?: readonly ForcedValidationError[];
  /** A batch fails validation with token_limit_exceeded, as OpenAI fails it, when its prompt tokens and those of the unfinished batches of its model pass this. */
  readonly enqueuedTokenLimit?: number;
}

/** What a job needs from its server while it steps. */
export interface JobContext {
  /** Milliseconds since the epoch. */
  now(): number;
  inputBytes(fileId: string): Buffer | undefined;
  readonly limits: BatchLimits;
  faults(): JobFaults;
  answer(line: BatchInputLine): LineOutcome;
  /** The prompt tokens of the other unfinished batches of this model. */
  enqueuedTokens(model: string, exceptBatchId: string): number;
  /** Stores a file of purpose batch_output and returns its id. */
  writeFile(filename: string, text: string): string;
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
}

const NOT_RUN = {
  expired: { code: 'batch_expired', message: 'This request could not be executed before the completion window expired.' },
  cancelled: { code: 'batch_cancelled', message: 'This request was not executed because the batch was cancelled.' },
};
const FINISHED: ReadonlySet<BatchStatus> = new Set(['completed', 'failed', 'expired', 'cancelled']);
const DAY_SECONDS = 24 * 3600;

export class BatchJob {
  status: BatchStatus = 'validating';
  readonly createdAt: number;
  /** The estimated prompt tokens of its lines, counted against the enqueued-token limit until it finishes. */
  promptTokens = 0;
  model: string | undefined;
  private readonly times: Partial<Record<Stamp, number>> = {};
  private errors: readonly BatchValidationError[] | null = null;
  private lines: readonly BatchInputLine[] = [];
  private readonly results: { readonly line: BatchInputLine; readonly outcome: LineOutcome }[] = [];
  private outputFileId: string | null = null;
  private errorFileId: string | null = null;

  constructor(
    readonly id: string,
    readonly request: JobRequest,
    now: number,
  ) {
    this.createdAt = Math.floor(now / 1000);
  }

  get finished(): boolean {
    return FINISHED.has(this.status);
  }

  /** One step of the batch's life; nothing once it is finished. */
  step(context: JobContext): void {
    const now = Math.floor(context.now() / 1000);
    if (this.status === 'validating') this.validate(context, now);
    else if (this.status === 'in_progress') this.run(context, now);
    else if (this.status === 'finalizing') this.close('completed', context, now);
    else if (this.status === 'cancelling') this.close('cancelled', context, now);
  }

  /** Starts cancelling; undefined when it could, else why not (a finished batch). */
  cancel(now: number): string | undefined {
    if (this.status === 'cancelling') return undefined;
    if (this.finished) return `Cannot cancel a batch with status '${this.status}'.`;
    this.status = 'cancelling';
    this.times.cancelling_at = Math.floor(now / 1000);
    return undefined;
  }

  toObject(): BatchObject {
    const completed = this.results.filter((result) => result.outcome.response?.status_code === 200);
    const usage = completed.map(
      (result) => (result.outcome.response?.body as { usage?: { prompt_tokens: number; completion_tokens: number } } | undefined)?.usage,
    );
    const input = usage.reduce((sum, entry) => sum + (entry?.prompt_tokens ?? 0), 0);
    const output = usage.reduce((sum, entry) => sum + (entry?.completion_tokens ?? 0), 0);
    return {
      id: this.id,
      object: 'batch',
      endpoint: this.request.endpoint,
      errors: this.errors === null ? null : { object: 'list', data: this.errors.map((error) => ({ ...error })) },
      input_file_id: this.request.inputFileId,
      completion_window: this.request.completionWindow,
      status: this.status,
      output_file_id: this.outputFileId,
      error_file_id: this.errorFileId,
      created_at: this.createdAt,
      expires_at: this.createdAt + DAY_SECONDS,
      ...(Object.fromEntries(STAMPS.map((stamp) => [stamp, this.times[stamp] ?? null])) as Record<Stamp, number | null>),
      request_counts: { total: this.lines.length, completed: completed.length, failed: this.results.length - completed.length },
      usage: {
        input_tokens: input,
        input_tokens_details: { cached_tokens: 0 },
        output_tokens: output,
        output_tokens_details: { reasoning_tokens: 0 },
        total_tokens: input + output,
      },
      metadata: this.request.metadata === null ? null : { ...this.request.metadata },
      ...(this.model === undefined ? {} : { model: this.model }),
    };
  }

  private validate(context: JobContext, now: number): void {
    const bytes = context.inputBytes(this.request.inputFileId) ?? Buffer.alloc(0);
    const input = readBatchInput(bytes, this.request.endpoint, this.request.lineUrls, context.limits);
    const faults = context.faults();
    if (faults.validationErrors !== undefined) {
      this.fail(faults.validationErrors, now);
      return;
    }
    if ('errors' in input) {
      this.fail(input.errors, now);
      return;
    }
    this.model = input.model;
    this.promptTokens = input.lines.reduce((sum, line) => {
      const request = parseChatRequest(line.body);
      return sum + (typeof request === 'string' ? 0 : estimatePromptTokens(request));
    }, 0);
    const limit = faults.enqueuedTokenLimit;
    const model = input.model ?? 'unknown';
    if (limit !== undefined && context.enqueuedTokens(model, this.id) + this.promptTokens > limit) {
      const message = `Enqueued token limit reached for ${model} in organization org-test. Limit: ${limit.toLocaleString('en-US')} enqueued tokens. Please try again once some in_progress batches have been completed.`;
      this.fail([{ code: 'token_limit_exceeded', message, param: null, line: null }], now);
      return;
    }
    this.lines = input.lines;
    this.status = 'in_progress';
    this.times.in_progress_at = now;
  }

  /** Answers the next share of lines; then finalizing when all are done, or expired when the expiry fault says so. */
  private run(context: JobContext, now: number): void {
    const { expireAfterLines } = context.faults();
    const share = context.linesPerStep ?? Math.ceil(this.lines.length / 2);
    const until = Math.min(this.lines.length, this.results.length + share, expireAfterLines ?? Number.POSITIVE_INFINITY);
    for (const line of this.lines.slice(this.results.length, until)) this.results.push({ line, outcome: context.answer(line) });
    if (expireAfterLines !== undefined && this.results.length >= expireAfterLines && this.results.length < this.lines.length) {
      this.close('expired', context, now);
      return;
    }
    if (this.results.length === this.lines.length) {
      this.status = 'finalizing';
      this.times.finalizing_at = now;
    }
  }

  private fail(errors: readonly ForcedValidationError[], now: number): void {
    this.errors = errors.map((error) => ({
      code: error.code,
      message: error.message,
      param: error.param ?? null,
      line: error.line ?? null,
    }));
    this.status = 'failed';
    this.times.failed_at = now;
  }

  /** Writes the output file (lines answered 200) and the error file (the others, and the lines never run), each only when it has lines. */
  private close(status: 'completed' | 'expired' | 'cancelled', context: JobContext, now: number): void {
    const notRun =
      status === 'completed'
        ? []
        : this.lines.slice(this.results.length).map((line) => ({ line, outcome: { response: null, error: NOT_RUN[status] } }));
    const all = [...this.results, ...notRun];
    const text = (entries: typeof all): string => {
      const ordered = context.outputOrder === 'reversed' ? [...entries].reverse() : entries;
      const suffix = this.id.replace(/^batch_/, '');
      return ordered
        .map(({ line, outcome }) => `${JSON.stringify({ id: `batch_req_${suffix}_${line.line}`, custom_id: line.customId, ...outcome })}\n`)
        .join('');
    };
    const succeeded = all.filter((entry) => entry.outcome.response?.status_code === 200);
    const failed = all.filter((entry) => entry.outcome.response?.status_code !== 200);
    if (succeeded.length > 0) this.outputFileId = context.writeFile(`${this.id}_output.jsonl`, text(succeeded));
    if (failed.length > 0) this.errorFileId = context.writeFile(`${this.id}_error.jsonl`, text(failed));
    this.status = status;
    this.times[`${status}_at`] = now;
  }
}
