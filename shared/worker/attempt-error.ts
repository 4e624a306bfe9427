import { z } from 'zod';
import { scrubSecrets } from '../secrets/scrub-secrets.js';
import type { ObjectStore } from '../ports/object-store.js';
import { runKeys } from '../run/run-identity.js';
import { parseJsonWith } from '../schema/parse-json-with.js';
import type { Result } from '../schema/result.js';

/**
 * Why the last delivery of a case failed, kept under a deterministic key
 * (`runs/<run>/attempts/<case>.json`). The judge worker writes it on every
 * failed delivery; after maxReceiveCount the failure recorder reads it into
 * the case's failure. It lives in the store because a queue message cannot
 * be changed on redelivery, and the dead-letter queue gets the message as it
 * was first sent.
 */
const attemptErrorSchema = z.object({ error: z.string(), receive_count: z.number() });

export async function recordAttemptError(
  store: ObjectStore,
  runId: string,
  caseId: string,
  error: string,
  receiveCount: number,
): Promise<void> {
  await store.put(runKeys.lastError(runId, caseId), JSON.stringify({ error, receive_count: receiveCount }));
}

/** The last delivery's error; undefined when no delivery recorded one, and a failure saying why when its record does not parse. */
export async function readAttemptError(store: ObjectStore, runId: string, caseId: string): Promise<Result<string> | undefined> {
  const key = runKeys.lastError(runId, caseId);
  const bytes = await store.get(key);
  if (bytes === undefined) return undefined;
  const parsed = parseJsonWith(attemptErrorSchema, bytes, 'a last-error record');
  return parsed.ok ? { ok: true, value: parsed.value.error } : { ok: false, error: `${key}: ${parsed.error}` };
}

/**
 * An error thrown while a case was evaluated, as one line for its failure
 * record and the logs: the message, never the stack, and without anything
 * shaped like a credential (an SDK message may quote a header).
 */
export function reasonOf(error: unknown): string {
  const message = error instanceof Error ? (error.message === '' ? error.name : error.message) : String(error);
  return scrubSecrets(message);
}
