import { z } from 'zod';
import { batchKeys, batchRequestSchema, type BatchRequest } from '../schema/batch-request.js';
import type { ObjectStore } from '../ports/object-store.js';
import { readJsonWith } from '../schema/parse-json-with.js';
import { caseMessageSchema, type CaseMessage } from '../schema/pipeline-messages.js';

/**
 * A case of a batch-judged run that waits for answers: the requests its
 * judgments need that no job has answered yet, and its message, to send it
 * again once they are answered. One record a case and round, written by the
 * judge worker in place of a result; the round's jobs are made from them.
 * A case is reported in a round when it has a result, a failure, or such a
 * record of the round.
 */
export const waitingCaseSchema = z.object({
  run_id: z.string(),
  case_id: z.string(),
  round: z.number().int().nonnegative(),
  message: caseMessageSchema,
  requests: z.array(batchRequestSchema).min(1),
});
export type WaitingCase = z.infer<typeof waitingCaseSchema>;

/** The round a case message is judged in: its batch_round, or the first. */
export function roundOf(message: CaseMessage): number {
  return message.batch_round ?? 0;
}

export async function recordWaitingCase(store: ObjectStore, message: CaseMessage, requests: readonly BatchRequest[]): Promise<void> {
  const round = roundOf(message);
  const record: WaitingCase = { run_id: message.run_id, case_id: message.case_id, round, message, requests: [...requests] };
  await store.put(batchKeys.waiting(message.run_id, round, message.case_id), JSON.stringify(record));
}

/** The case ids waiting in a round, from the keys alone. */
export async function waitingCaseIds(store: ObjectStore, runId: string, round: number): Promise<string[]> {
  const prefix = batchKeys.waitingPrefix(runId, round);
  const ids: string[] = [];
  for await (const key of store.list(prefix)) ids.push(key.slice(prefix.length).replace(/\.json$/, ''));
  return ids;
}

export async function readWaitingCase(store: ObjectStore, runId: string, round: number, caseId: string): Promise<WaitingCase> {
  const key = batchKeys.waiting(runId, round, caseId);
  const bytes = await store.get(key);
  if (bytes === undefined) throw new Error(`The waiting record of case ${caseId} (run ${runId}, round ${round}) is missing`);
  return readJsonWith(waitingCaseSchema, bytes, key);
}

/** Each request the cases need, once. */
export function uniqueRequests(cases: readonly WaitingCase[]): BatchRequest[] {
  const byId = new Map<string, BatchRequest>();
  for (const waiting of cases) for (const request of waiting.requests) if (!byId.has(request.id)) byId.set(request.id, request);
  return [...byId.values()];
}
