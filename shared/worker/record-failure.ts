import { createHash } from 'node:crypto';
import { scrubSecrets } from '../secrets/scrub-secrets.js';
import type { ObjectStore } from '../ports/object-store.js';
import { parseCaseMessage } from '../schema/pipeline-messages.js';
import type { CaseFailure } from '../schema/run-records.js';
import { readAttemptError } from './attempt-error.js';
import { runKeys } from '../run/run-identity.js';

export type FailureOutcome =
  | { kind: 'recorded'; runId: string; caseId: string }
  | { kind: 'superseded'; caseId: string }
  | { kind: 'poison'; key: string };

/**
 * The failure recorder's work on one dead-lettered message: the case gets
 * `runs/<run>/failures/<shard>/<case>.json` with the last error the worker recorded,
 * so every case of a run ends as a result or a failure. A case that has a
 * result meanwhile (a redelivery succeeded) is left alone. A message that is
 * not a case message at all is kept under `dead-letters/` with why.
 */
export async function recordFailure(store: ObjectStore, body: string, receiveCount: number): Promise<FailureOutcome> {
  const message = parseCaseMessage(body);
  if (!message.ok) {
    const key = `dead-letters/${createHash('sha256').update(body).digest('hex').slice(0, 24)}.json`;
    await store.put(key, JSON.stringify({ error: message.error, body }));
    return { kind: 'poison', key };
  }
  const { run_id: runId, case_id: caseId } = message.value;
  if ((await store.get(runKeys.result(runId, caseId))) !== undefined) return { kind: 'superseded', caseId };
  // The error was cleaned where it entered; cleaning it again here keeps a key out of the record whatever path it took.
  const error = scrubSecrets(await lastError(store, runId, caseId));
  const failure: CaseFailure = { run_id: runId, case_id: caseId, error, receive_count: receiveCount, message: body };
  await store.put(runKeys.failure(runId, caseId), JSON.stringify(failure));
  return { kind: 'recorded', runId, caseId };
}

async function lastError(store: ObjectStore, runId: string, caseId: string): Promise<string> {
  const recorded = await readAttemptError(store, runId, caseId);
  // A worker records every failure it sees; one that recorded none was stopped from outside (a timeout, out of memory).
  if (recorded === undefined)
    return 'the case could not be processed; the worker recorded no error, so its invocation ended first (a timeout or out of memory? see its logs)';
  return recorded.ok ? recorded.value : `the case could not be processed; its last error is unreadable: ${recorded.error}`;
}
