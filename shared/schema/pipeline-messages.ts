import { z } from 'zod';
import { evalCaseSchema } from './eval-case.js';

/**
 * Messages on the pipeline's queues. Every message is parsed with these
 * schemas on arrival; a message that does not parse is a poison message and
 * ends in the dead-letter queue with its error recorded.
 */

/** On the cases queue: one case to judge, inline or (too large for a message) by claim check. */
export const caseMessageSchema = z.object({
  kind: z.literal('case'),
  run_id: z.string().min(1),
  case_id: z.string().min(1),
  /** The case itself, when it fits in a message. */
  case: evalCaseSchema.optional(),
  /** Otherwise the store key of `runs/<run>/cases/<case>.json`. */
  case_key: z.string().optional(),
  /** How often the case was sent again because the judge server's rate limit held its judgments (shared/worker/rate-limit-deferral.ts). */
  deferrals: z.number().int().nonnegative().optional(),
  /** Of a batch-judged run: the round of batch jobs this delivery judges from (shared/batch/); absent, the first (0). */
  batch_round: z.number().int().nonnegative().optional(),
  /** Evaluate the case without its LLM judges: a batch-judged run's ceiling (run.max_judge_cost) left no room for its requests. */
  skip_judges: z.literal('max_judge_cost').optional(),
  /** Judge online what no batch job answered: the round's requests would make a job below the provider's minimum (judge.batch.below_minimum: online). */
  judge_online: z.literal('below_minimum').optional(),
}).refine((message) => (message.case === undefined) !== (message.case_key === undefined), {
  message: 'a case message carries either the case or its case_key, not both or neither',
});
export type CaseMessage = z.infer<typeof caseMessageSchema>;

/** On the control queue: ask the reducer whether a run is complete. */
export const checkMessageSchema = z.object({
  kind: z.literal('check'),
  run_id: z.string().min(1),
  /** How many checks came before this one, for the log and the back-off. */
  attempt: z.number().int().nonnegative(),
});
export type CheckMessage = z.infer<typeof checkMessageSchema>;

/**
 * On the control queue: an ingest that ran short of time stopped at a
 * checkpoint; the unsent case messages wait in the store under messages_key.
 */
export const continueIngestMessageSchema = z.object({
  kind: z.literal('continue-ingest'),
  run_id: z.string().min(1),
  messages_key: z.string().min(1),
  finish: z.object({ rows: z.number().int().nonnegative(), cases: z.number().int().nonnegative(), check_delay_seconds: z.number().int().nonnegative() }),
});
export type ContinueIngestMessage = z.infer<typeof continueIngestMessageSchema>;

/**
 * On the control queue: aggregate one range of a large run's sorted case ids
 * into `runs/<run>/partials/` (a split reduce, see shared/reduce/split-reduce.ts).
 */
export const reduceRangeMessageSchema = z.object({
  kind: z.literal('reduce-range'),
  run_id: z.string().min(1),
  range: z.number().int().nonnegative(),
});
export type ReduceRangeMessage = z.infer<typeof reduceRangeMessageSchema>;

/** Anything on the control queue. */
export const controlMessageSchema = z.discriminatedUnion('kind', [checkMessageSchema, continueIngestMessageSchema, reduceRangeMessageSchema]);
export type ControlMessage = z.infer<typeof controlMessageSchema>;

/** SQS's limit is 256 KiB; leave room for the envelope. */
export const MAX_INLINE_MESSAGE_BYTES = 200 * 1024;
