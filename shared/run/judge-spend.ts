import { z } from 'zod';
import type { ObjectStore } from '../ports/object-store.js';
import { spendSettingsOf, type JudgePrices } from '../schema/judge-prices.js';
import { readJsonWith } from '../schema/parse-json-with.js';
import type { Manifest } from '../schema/run-records.js';
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

/**
 * A run's cost ceiling: run.max_judge_cost, in the currency of judge.prices.
 * The one builder of it, for the workers' online spend
 * (shared/worker/judge-budget.ts) and a batch-judged run's jobs
 * (shared/batch-judging/batch-ceiling.ts).
 */
export interface JudgeCeiling {
  readonly maxCost: number;
  readonly prices: JudgePrices;
}

/** The ceiling of a run's stored config; undefined when it sets none (the config check makes prices come with it). */
export function judgeCeilingOf(manifest: Manifest): JudgeCeiling | undefined {
  const { maxCost, prices } = spendSettingsOf(manifest.config);
  if (maxCost === undefined) return undefined;
  if (prices === undefined)
    throw new Error(`Run ${manifest.run_id} sets run.max_judge_cost without judge.prices: its config was not checked`);
  return { maxCost, prices };
}
