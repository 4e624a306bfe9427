import { z } from 'zod';
import { readBatchState } from '../batch-judging/batch-state.js';
import type { ObjectStore } from '../ports/object-store.js';
import { judgeCeilingOf, workersSpend, type JudgeCeiling } from '../run/judge-spend.js';
import type { Manifest } from '../schema/run-records.js';
import { runKeys } from '../run/run-identity.js';

/** `runs/<run>/judge-budget-reached`: the spend seen when the ceiling was found passed, by whoever found it first. */
export const budgetReachedSchema = z.object({ spend: z.number().nonnegative(), max_judge_cost: z.number(), currency: z.string() });

/** Writes the marker unless there is one: the first writer's numbers stay. */
export async function markBudgetReached(store: ObjectStore, runId: string, ceiling: JudgeCeiling, spend: number): Promise<void> {
  const body = JSON.stringify({ spend, max_judge_cost: ceiling.maxCost, currency: ceiling.prices.currency });
  await store.put(runKeys.judgeBudgetReached(runId), body, { ifNoneMatch: true });
}

export async function budgetReached(store: ObjectStore, runId: string): Promise<boolean> {
  return (await store.get(runKeys.judgeBudgetReached(runId))) !== undefined;
}

/**
 * The completion check's part (reduce.ts): sums every worker's spend file of
 * the run, and a batch-judged run's jobs as estimated when they were
 * submitted, and once the sum passes the ceiling, writes the marker. A worker
 * marks it on its own spend alone (judge-budget.ts); this sum catches the
 * ceiling that only many workers together pass, or the jobs with them.
 */
export async function checkJudgeSpend(store: ObjectStore, manifest: Manifest): Promise<void> {
  const ceiling = judgeCeilingOf(manifest);
  if (ceiling === undefined || (await budgetReached(store, manifest.run_id))) return;
  const { jobs } = await readBatchState(store, manifest.run_id);
  const jobsCost = jobs.reduce((sum, job) => sum + (job.phase === 'failed' ? 0 : (job.estimated_cost ?? 0)), 0);
  const spend = (await workersSpend(store, manifest.run_id)) + jobsCost;
  if (spend > ceiling.maxCost) await markBudgetReached(store, manifest.run_id, ceiling, spend);
}
