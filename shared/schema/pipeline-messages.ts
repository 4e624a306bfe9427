import { z } from 'zod';
import { evalCaseSchema } from './eval-case.js';
import { parseJsonWith } from './parse-json-with.js';
import type { Result } from './result.js';

/**
 * Messages on the pipeline's queues. Every message is parsed with these
 * schemas on arrival; a message that does not parse is a poison message and
 * ends in the dead-letter queue with its error recorded.
 */

/** The fields of every case message before where its case is (`case` or `case_key`), in their order on the wire. */
const caseMessageHead = {
  kind: z.literal('case'),
  run_id: z.string().min(1),
  case_id: z.string().min(1),
};

/** The fields of every case message after where its case is. */
const caseMessageTail = {
  /** How often the case was sent again because the judge server's rate limit held its judgments (shared/worker/rate-limit-deferral.ts). */
  deferrals: z.number().int().nonnegative().optional(),
  /** Of a batch-judged run: the round of batch jobs this delivery judges from (shared/batch-judging/); absent, the first (0). */
  batch_round: z.number().int().nonnegative().optional(),
  /** Evaluate the case without its LLM judges: a batch-judged run's ceiling (run.max_judge_cost) left no room for its requests. */
  skip_judges: z.literal('max_judge_cost').optional(),
  /** Judge online what no batch job answered: the round's requests would make a job below the provider's minimum (judge.batch.below_minimum: online). */
  judge_online: z.literal('below_minimum').optional(),
  /** A case of the run's canary set (config `canaries:`): judged without the judge cache, and without live engines; reported apart from the run's cases. */
  canary: z.literal(true).optional(),
};

/** A case that fits in a message, carried in it (and so no case_key). */
export const inlineCaseMessageSchema = z.object({
  ...caseMessageHead,
  case: evalCaseSchema,
  case_key: z.undefined().optional(),
  ...caseMessageTail,
});
export type InlineCaseMessage = z.infer<typeof inlineCaseMessageSchema>;

/** A case too large for a message: the store key of `runs/<run>/cases/<case>.json` (a claim check), and no case. */
export const claimCheckedCaseMessageSchema = z.object({
  ...caseMessageHead,
  case: z.undefined().optional(),
  case_key: z.string(),
  ...caseMessageTail,
});
export type ClaimCheckedCaseMessage = z.infer<typeof claimCheckedCaseMessageSchema>;

/** On the cases queue: one case to judge, inline or (too large for a message) by claim check, never both. */
export const caseMessageSchema = z.union([inlineCaseMessageSchema, claimCheckedCaseMessageSchema], {
  error: 'a case message carries either the case or its case_key, not both or neither',
});
export type CaseMessage = z.infer<typeof caseMessageSchema>;

/**
 * A queue message's body as a case message, or why it is not one, for the
 * log and the dead-letter record: `not valid JSON (...)`, or `not a case
 * message: field "run_id": is missing` (parse-json-with.ts).
 */
export function parseCaseMessage(body: string): Result<CaseMessage> {
  return parseJsonWith(caseMessageSchema, body, 'a case message');
}

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
  finish: z.object({
    rows: z.number().int().nonnegative(),
    cases: z.number().int().nonnegative(),
    check_delay_seconds: z.number().int().nonnegative(),
  }),
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
export const controlMessageSchema = z.discriminatedUnion('kind', [
  checkMessageSchema,
  continueIngestMessageSchema,
  reduceRangeMessageSchema,
]);
export type ControlMessage = z.infer<typeof controlMessageSchema>;

/** SQS's limit is 256 KiB; leave room for the envelope. */
export const MAX_INLINE_MESSAGE_BYTES = 200 * 1024;
