import { z } from 'zod';
import type { ObjectStore } from '../ports/object-store.js';
import { readJsonWith } from '../schema/parse-json-with.js';
import { runKeys } from './run-identity.js';

/** `runs/<run>/judge-spend/<worker>.json`: what one worker's judges spent on the run, online. */
export const workerSpendSchema = z.object({ spend: z.number().nonnegative(), currency: z.string() });

/**
 * What the run's workers have spent on judge calls so far, summed over their
 * spend files (shared/worker/judge-budget.ts). Of a batch-judged run this is
 * its online calls (fallbacks, rounds below a job's minimum): its jobs'
 * cost is estimated where they are submitted (shared/batch-judging/batch-ceiling.ts).
 */
export async function workersSpend(store: ObjectStore, runId: string): Promise<number> {
  let spend = 0;
  for await (const key of store.list(runKeys.judgeSpendPrefix(runId))) {
    const bytes = await store.get(key);
    if (bytes !== undefined) spend += readJsonWith(workerSpendSchema, bytes, key).spend;
  }
  return spend;
}
