import { estimatePromptTokens, parseChatRequest } from '../chat-completion-answer.js';
import { readBatchInput, type BatchInputLine, type BatchValidationError } from './batch-input.js';
import { batchObjectOf, type BatchObject, type BatchStatus, type Stamp } from './batch-object.js';
import type { ForcedValidationError, JobContext, JobRequest } from './job-context.js';
import type { LineOutcome } from './line-answers.js';
import { writeErrorFile, writeOutputFile, type ResultFileLine } from './output-file.js';
import { errorText, type ProviderTextFaults } from './provider-text.js';

/**
 * One batch and its life, one step at a time: validating → in_progress
 * (its lines answered a share per step, so request_counts grow between
 * polls) → finalizing → completed, or failed (validation, or a fault mid-way),
 * expired (a fault: the window closed with lines not run) or cancelling →
 * cancelled. The steps are driven from outside (a poll, advance(), a timer),
 * so a test sees every intermediate state deterministically.
 */
export type { Batch, BatchObject, BatchStatus } from './batch-object.js';
const NOT_RUN = {
  expired: { code: 'batch_expired', message: 'This request could not be executed before the completion window expired.' },
  cancelled: { code: 'batch_cancelled', message: 'This request was not executed because the batch was cancelled.' },
};
const FINISHED: ReadonlySet<BatchStatus> = new Set(['completed', 'failed', 'expired', 'cancelled']);

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
  /** Retrieves left that show the files' ids as null (outputFileLagPolls). */
  private fileIdsHiddenFor = 0;

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

  /** Counts one `GET batches/{id}` answered, against outputFileLagPolls. */
  retrieved(): void {
    if (this.finished && this.fileIdsHiddenFor > 0) this.fileIdsHiddenFor -= 1;
  }

  /** The batch as the API sends it; `faults` decorate its status (statusSuffix). */
  toObject(faults: ProviderTextFaults = {}): BatchObject {
    const hidden = this.fileIdsHiddenFor > 0;
    return batchObjectOf({
      ...this.request,
      id: this.id,
      statusShown: this.status === 'in_progress' ? `in_progress${faults.statusSuffix ?? ''}` : this.status,
      createdAt: this.createdAt,
      expiresAt: this.createdAt + this.request.windowSeconds,
      times: this.times,
      errors: this.errors,
      total: this.lines.length,
      outcomes: this.results.map((result) => result.outcome),
      outputFileId: hidden ? null : this.outputFileId,
      errorFileId: hidden ? null : this.errorFileId,
      model: this.model,
    });
  }

  private validate(context: JobContext, now: number): void {
    const bytes = context.inputBytes(this.request.inputFileId) ?? Buffer.alloc(0);
    const input = readBatchInput(bytes, this.request.endpoint, this.request.lineUrls, context.limits);
    const faults = context.faults();
    if (faults.validationErrors !== undefined) {
      this.fail(faults.validationErrors, context, now);
      return;
    }
    if ('errors' in input) {
      this.fail(input.errors, context, now);
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
      this.fail([{ code: 'token_limit_exceeded', message, param: null, line: null }], context, now);
      return;
    }
    this.lines = input.lines;
    this.status = 'in_progress';
    this.times.in_progress_at = now;
  }

  /** Answers the next share of lines; then finalizing when all are done, or expired or failed when a fault says so. */
  private run(context: JobContext, now: number): void {
    const { expireAfterLines, failAfterLines } = context.faults();
    const stopAt = Math.min(expireAfterLines ?? Number.POSITIVE_INFINITY, failAfterLines ?? Number.POSITIVE_INFINITY);
    const share = context.linesPerStep ?? Math.ceil(this.lines.length / 2);
    const until = Math.min(this.lines.length, this.results.length + share, stopAt);
    for (const line of this.lines.slice(this.results.length, until))
      this.results.push({ line, outcome: context.answer(line, this.request.apiKey) });
    const cut = this.results.length >= stopAt && this.results.length < this.lines.length;
    if (cut && failAfterLines === stopAt) {
      const message = `The batch failed after ${this.results.length} of its ${this.lines.length} requests ran: the server had an error while processing it.`;
      this.errors = this.checked([{ code: 'server_error', message }], context);
      this.close('failed', context, now);
    } else if (cut) this.close('expired', context, now);
    else if (this.results.length === this.lines.length) {
      this.status = 'finalizing';
      this.times.finalizing_at = now;
    }
  }

  private fail(errors: readonly ForcedValidationError[], context: JobContext, now: number): void {
    this.errors = this.checked(errors, context);
    this.status = 'failed';
    this.times.failed_at = now;
  }

  /** The errors of errors.data, null fields filled and messages written as the plan says. */
  private checked(errors: readonly ForcedValidationError[], context: JobContext): BatchValidationError[] {
    const faults = context.faults();
    return errors.map((error) => ({
      code: error.code,
      message: errorText(error.message, this.request.apiKey, faults),
      param: error.param ?? null,
      line: error.line ?? null,
    }));
  }

  /** Writes the output file (lines answered 200, broken as the plan says) and the error file (the others, and the lines never run), each only when it has lines. */
  private close(status: 'completed' | 'expired' | 'cancelled' | 'failed', context: JobContext, now: number): void {
    const faults = context.faults();
    const notRun =
      status === 'expired' || status === 'cancelled'
        ? this.lines.slice(this.results.length).map((line) => {
            const error = { code: NOT_RUN[status].code, message: errorText(NOT_RUN[status].message, this.request.apiKey, faults) };
            return { line, outcome: { response: null, error } };
          })
        : [];
    const all = [...this.results, ...notRun];
    const ordered = context.outputOrder === 'reversed' ? [...all].reverse() : all;
    const suffix = this.id.replace(/^batch_/, '');
    const lines: ResultFileLine[] = ordered.map(({ line, outcome }) => ({
      id: `batch_req_${suffix}_${line.line}`,
      custom_id: line.customId,
      ...outcome,
    }));
    const succeeded = lines.filter((line) => line.response?.status_code === 200);
    const failed = lines.filter((line) => line.response?.status_code !== 200);
    if (succeeded.length > 0 || (faults.unknownIdLines ?? 0) > 0) {
      const written = writeOutputFile(this.id, succeeded, faults, this.request.apiKey);
      this.outputFileId = context.writeFile(`${this.id}_output.jsonl`, written.text);
      context.wroteOutput(this.id, written);
    }
    if (failed.length > 0) this.errorFileId = context.writeFile(`${this.id}_error.jsonl`, writeErrorFile(failed));
    this.fileIdsHiddenFor = faults.outputFileLagPolls ?? 0;
    this.status = status;
    this.times[`${status}_at`] = now;
  }
}
