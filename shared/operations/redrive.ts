import type { ObjectStore } from '../ports/object-store.js';
import { sendAll, type WorkQueue } from '../ports/work-queue.js';
import { readJsonWith } from '../schema/parse-json-with.js';
import { parseCaseMessage, type CheckMessage } from '../schema/pipeline-messages.js';
import { inCurrentRound } from '../batch-judging/batch-state.js';
import { caseFailureSchema } from '../schema/run-records.js';
import { extendDeadline, runCompletion } from '../run/run-completion.js';
import { runKeys } from '../run/run-identity.js';

export type RedriveOutcome =
  | { readonly kind: 'requeued'; readonly requeued: string[] }
  /** Cases of the run have neither a result nor a failure: nothing was sent, since only `assay resume` sends those. */
  | { readonly kind: 'unfinished'; readonly unfinished: number; readonly cases: number };

/**
 * `assay redrive RUN`: sends every failed case of a run back to the cases
 * queue, as it was first sent, and schedules a completion check. The failure
 * record goes as the case goes back, so the run counts the case as pending
 * until it ends again: with a result, or a fresh failure record (a redrive
 * cut short leaves it missing, and `assay resume` sends it once more). Cases
 * with a result are never sent again. The deadline moves to the configured
 * length from now.
 *
 * A run with cases that have neither a result nor a failure (its process was
 * killed, its deadline passed, its batch jobs still answer) is unfinished:
 * redrive sends nothing, since the run would never be complete and its drive
 * would wait for those cases until the deadline; `assay resume` finishes it.
 */
export async function redriveFailures(
  store: ObjectStore,
  queues: { readonly cases: WorkQueue; readonly control: WorkQueue },
  runId: string,
  now: Date = new Date(),
): Promise<RedriveOutcome> {
  const completion = await runCompletion(store, runId);
  if (completion.unfinished.length > 0) return { kind: 'unfinished', unfinished: completion.unfinished.length, cases: completion.total };
  await extendDeadline(store, completion.manifest, now);
  const requeued: string[] = [];
  const bodies: string[] = [];
  const inRound = await inCurrentRound(store, runId);
  for await (const key of store.list(runKeys.failuresPrefix(runId))) {
    const bytes = await store.get(key);
    if (bytes === undefined) continue;
    const failure = readJsonWith(caseFailureSchema, bytes, key);
    if ((await store.get(runKeys.result(runId, failure.case_id))) !== undefined) continue;
    requeued.push(failure.case_id);
    const message = parseCaseMessage(failure.message);
    // A message that no longer parses goes as it was, and fails again with its reason.
    bodies.push(message.ok ? JSON.stringify(inRound(message.value)) : failure.message);
  }
  await sendAll(
    queues.cases,
    bodies.map((body, index) => ({ id: String(index % 10), body })),
  );
  for (const caseId of requeued) await store.delete(runKeys.failure(runId, caseId));
  // Shards marked complete may hold a deleted failure: the next check lists every shard again.
  // Partials of an earlier split reduce no longer hold those cases' outcomes either.
  if (requeued.length > 0) {
    await store.delete(runKeys.progress(runId));
    const partials: string[] = [];
    for await (const key of store.list(runKeys.partialsPrefix(runId))) partials.push(key);
    for (const key of partials) await store.delete(key);
  }
  const check: CheckMessage = { kind: 'check', run_id: runId, attempt: 0 };
  await sendAll(queues.control, [{ id: 'check', body: JSON.stringify(check), delaySeconds: 1 }]);
  return { kind: 'requeued', requeued: requeued.sort() };
}
