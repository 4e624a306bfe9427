import { z } from 'zod';
import { batchKeys } from '../schema/batch-request.js';
import type { ObjectStore } from '../ports/object-store.js';
import { readJsonWith } from '../schema/parse-json-with.js';
import type { CaseMessage } from '../schema/pipeline-messages.js';

/**
 * The batch jobs of a run, as its store keeps them: the round the run is in
 * and every job of every round. A job is recorded, with the requests it
 * holds (its input is under batchKeys.jobInput), before it is created at
 * the provider, and its provider id right after, so a process that dies at
 * any point leaves what the next one needs to find the job again instead of
 * paying for it twice.
 */
export const jobRecordSchema = z.object({
  /** The run's own name of the job: `<run>-r<round>-j<index>`; the provider keeps it (metadata, job name). */
  key: z.string(),
  round: z.number().int().nonnegative(),
  /** The provider's id, once it has the job. */
  provider_id: z.string().optional(),
  requests: z.number().int().positive(),
  /** The model its requests ask; absent in the records of runs made before jobs named it. */
  model: z.string().optional(),
  /** The provider's word for the job's state, as it came (`validating`, `InProgress`, ...), or `planned` before it exists there. */
  state: z.string(),
  phase: z.enum(['planned', 'pending', 'running', 'finished', 'failed']),
  counts: z.object({ total: z.number().int(), completed: z.number().int(), failed: z.number().int() }).optional(),
  /** Set once the job's answers are in the store. */
  collected: z.boolean().default(false),
  /** Why it failed validation, as the provider said. */
  errors: z.array(z.object({ code: z.string(), message: z.string(), line: z.number().int().optional() })).optional(),
  created_at: z.iso.datetime().optional(),
  finished_at: z.iso.datetime().optional(),
  /** When the provider's window for the job closes, as it last said: an outage is waited out until then at most. */
  expires_at: z.iso.datetime().optional(),
  /** Looks at a job finished by its state whose files the provider did not name yet; it is looked at again a few times before its lines count as not run. */
  looks_without_files: z.number().int().positive().optional(),
  /** Lines of its files that were no answer, by why (`not JSON`, `cut off`, `duplicate id`...): their requests are sent again. */
  unread_lines: z.record(z.string(), z.number().int().positive()).optional(),
  /** What its requests were estimated to cost at submission, under run.max_judge_cost (batch-ceiling.ts). */
  estimated_cost: z.number().nonnegative().optional(),
});
export type JobRecord = z.infer<typeof jobRecordSchema>;

export const batchStateSchema = z.object({
  /** Rounds whose answers are all in, and whose waiting cases were sent again, come before this one. */
  round: z.number().int().nonnegative(),
  jobs: z.array(jobRecordSchema),
  /** When the provider first did not answer, in the outage going on; absent while it answers. */
  unreachable_since: z.iso.datetime().optional(),
});
export type BatchState = z.infer<typeof batchStateSchema>;

export async function readBatchState(store: ObjectStore, runId: string): Promise<BatchState> {
  const bytes = await store.get(batchKeys.state(runId));
  if (bytes === undefined) return { round: 0, jobs: [] };
  return readJsonWith(batchStateSchema, bytes, batchKeys.state(runId));
}

export async function writeBatchState(store: ObjectStore, runId: string, state: BatchState): Promise<void> {
  await store.put(batchKeys.state(runId), JSON.stringify(state));
}

/** Whether a run has batch jobs at all (a run judged online has no state). */
export async function hasBatchState(store: ObjectStore, runId: string): Promise<boolean> {
  return (await store.get(batchKeys.state(runId))) !== undefined;
}

/**
 * A case message of the run set to the round its batch jobs are in: a case
 * sent again by `assay resume` or `assay redrive` (whose stored message may
 * be of an earlier round, or of none) must wait, if it waits, where the
 * next jobs are made from. A run judged online is in round 0: its messages
 * are kept as they are.
 */
export async function inCurrentRound(store: ObjectStore, runId: string): Promise<(message: CaseMessage) => CaseMessage> {
  const { round } = await readBatchState(store, runId);
  return (message) => (round === 0 && message.batch_round === undefined ? message : { ...message, batch_round: round });
}
