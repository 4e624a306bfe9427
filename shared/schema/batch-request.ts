import { createHash } from 'node:crypto';
import { z } from 'zod';

/**
 * One judge request of a batch-judged run: the body an online judgment would
 * send, held back to go out in a provider's batch job. Its id names it in the
 * job's lines (OpenAI's `custom_id`, Bedrock's `recordId`), in the stored
 * answer, and in the waiting record of every case that needs it, so an
 * answer is always found by its id, never by its place in a file.
 *
 * The id hashes the body, the sample number and the attempt: two cases that
 * need the same judgment need one request; two samples of one prompt at a
 * temperature above 0 are two requests with one body (two draws); a line
 * that failed or expired is sent once more as attempt 1, a request of its
 * own, so its first answer is never mistaken for its second.
 */
export const batchRequestSchema = z.object({
  id: z.string().regex(/^b[0-9a-f]{39}$/),
  /** The judge whose judgment needs it (its usage is counted under this id). */
  judge: z.string().min(1),
  /** The model asked for, as the judge's prices name it. */
  model: z.string().min(1),
  sample: z.number().int().nonnegative(),
  attempt: z.number().int().nonnegative(),
  /** The request body in the provider's wire format (a chat completion request, or a Converse request). */
  body: z.record(z.string(), z.unknown()),
});
export type BatchRequest = z.infer<typeof batchRequestSchema>;

export function batchRequestId(body: unknown, sample: number, attempt: number): string {
  return `b${createHash('sha256')
    .update(JSON.stringify([body, sample, attempt]))
    .digest('hex')
    .slice(0, 39)}`;
}

/**
 * What came back for one request, as stored when its job was collected:
 * the provider's answer (an HTTP status and body, as an online call would
 * have had them), or the line's failure without an answer (the job expired
 * or was cancelled before the line ran, or the line itself failed).
 */
export const batchAnswerSchema = z.object({
  id: z.string(),
  /** The provider's job the answer came from. */
  job: z.string(),
  answer: z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('response'), status: z.number().int(), body: z.unknown() }),
    z.object({ kind: z.literal('line-failed'), code: z.string(), message: z.string() }),
  ]),
});
export type BatchAnswer = z.infer<typeof batchAnswerSchema>;

/** Store keys of a batch-judged run's records, under the run's own prefix. */
export const batchKeys = {
  answer: (runId: string, requestId: string) => `runs/${runId}/batch/answers/${requestId.slice(1, 3)}/${requestId}.json`,
  answersPrefix: (runId: string) => `runs/${runId}/batch/answers/`,
  /** The cases of a round that wait for answers, each with the requests it needs and its message to send again. */
  waiting: (runId: string, round: number, caseId: string) => `runs/${runId}/batch/waiting/${round}/${caseId}.json`,
  waitingPrefix: (runId: string, round: number) => `runs/${runId}/batch/waiting/${round}/`,
  /** The rounds and jobs of the run: written before a job is created at the provider, and after every change. */
  state: (runId: string) => `runs/${runId}/batch/state.json`,
  /** A job's lines as submitted, kept for audit and to submit the same bytes again. */
  jobInput: (runId: string, jobKey: string) => `runs/${runId}/batch/jobs/${jobKey}.jsonl`,
  /** The ids of a job's requests, in its input's order, with the judge and model of each: what is owed an answer once it is collected. */
  jobRequests: (runId: string, jobKey: string) => `runs/${runId}/batch/jobs/${jobKey}.requests.json`,
  /** What the provider billed for a job's lines, per judge and model, counted when it is collected (judge usage records). */
  usage: (runId: string, jobKey: string) => `runs/${runId}/batch/usage/${jobKey}.json`,
  usagePrefix: (runId: string) => `runs/${runId}/batch/usage/`,
};
