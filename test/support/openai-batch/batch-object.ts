import type OpenAI from 'openai';
import type { BatchValidationError } from './batch-input.js';
import type { LineOutcome } from './line-answers.js';

/**
 * A batch as the API sends it (`GET /batches/{id}`, the list, a create or a
 * cancel), from the state of the test server's job: its stamps, its counts
 * and usage, its files.
 */
export type Batch = OpenAI.Batches.Batch;
export type BatchStatus = Batch['status'];
export type Stamp = `${'in_progress' | 'finalizing' | 'completed' | 'failed' | 'expired' | 'cancelling' | 'cancelled'}_at`;
/**
 * The batch as the API sends it: the SDK types these fields as optional, the API sends null until
 * they are known. `status` is a BatchStatus, with the plan's statusSuffix while in_progress.
 */
export type BatchObject = Omit<Batch, Stamp | 'output_file_id' | 'error_file_id' | 'errors' | 'status'> &
  Record<Stamp, number | null> & {
    status: BatchStatus | `in_progress${string}`;
    output_file_id: string | null;
    error_file_id: string | null;
    errors: Batch['errors'] | null;
  };

const STAMPS: readonly Stamp[] = [
  'in_progress_at',
  'finalizing_at',
  'completed_at',
  'failed_at',
  'expired_at',
  'cancelling_at',
  'cancelled_at',
];

/** What the object is made of. */
export interface BatchView {
  readonly id: string;
  readonly endpoint: string;
  readonly inputFileId: string;
  readonly completionWindow: string;
  readonly metadata: Readonly<Record<string, string>> | null;
  /** The status as sent: the job's own, or in_progress with the plan's suffix. */
  readonly statusShown: BatchObject['status'];
  readonly createdAt: number;
  readonly expiresAt: number;
  readonly times: Partial<Record<Stamp, number>>;
  readonly errors: readonly BatchValidationError[] | null;
  readonly total: number;
  readonly outcomes: readonly LineOutcome[];
  readonly outputFileId: string | null;
  readonly errorFileId: string | null;
  readonly model: string | undefined;
}

export function batchObjectOf(view: BatchView): BatchObject {
  const completed = view.outcomes.filter((outcome) => outcome.response?.status_code === 200);
  const usage = completed.map(
    (outcome) => (outcome.response?.body as { usage?: { prompt_tokens: number; completion_tokens: number } } | undefined)?.usage,
  );
  const input = usage.reduce((sum, entry) => sum + (entry?.prompt_tokens ?? 0), 0);
  const output = usage.reduce((sum, entry) => sum + (entry?.completion_tokens ?? 0), 0);
  return {
    id: view.id,
    object: 'batch',
    endpoint: view.endpoint,
    errors: view.errors === null ? null : { object: 'list', data: view.errors.map((error) => ({ ...error })) },
    input_file_id: view.inputFileId,
    completion_window: view.completionWindow,
    status: view.statusShown,
    output_file_id: view.outputFileId,
    error_file_id: view.errorFileId,
    created_at: view.createdAt,
    expires_at: view.expiresAt,
    ...(Object.fromEntries(STAMPS.map((stamp) => [stamp, view.times[stamp] ?? null])) as Record<Stamp, number | null>),
    request_counts: { total: view.total, completed: completed.length, failed: view.outcomes.length - completed.length },
    usage: {
      input_tokens: input,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens: output,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: input + output,
    },
    metadata: view.metadata === null ? null : { ...view.metadata },
    ...(view.model === undefined ? {} : { model: view.model }),
  };
}
