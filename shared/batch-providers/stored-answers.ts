import { readJsonWith } from '../schema/parse-json-with.js';
import type { ObjectStore } from '../ports/object-store.js';
import { batchAnswerSchema, batchKeys, type BatchAnswer } from '../schema/batch-request.js';

/** Reads a run's collected batch answers by request id, as a batch completer asks for them. */
export function storedAnswers(store: ObjectStore): (runId: string, requestId: string) => Promise<BatchAnswer | undefined> {
  return async (runId, requestId) => {
    const key = batchKeys.answer(runId, requestId);
    const bytes = await store.get(key);
    if (bytes === undefined) return undefined;
    return readJsonWith(batchAnswerSchema, bytes, key);
  };
}
