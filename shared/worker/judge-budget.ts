import { randomUUID } from 'node:crypto';
import type { ObjectStore } from '../ports/object-store.js';
import { pricedSpend } from '../report/judge-cost.js';
import type { JudgeUsageRecord } from '../schema/run-records.js';
import type { JudgeCeiling } from '../run/judge-spend.js';
import { budgetReached, markBudgetReached } from './judge-ceiling.js';
import { runKeys } from '../run/run-identity.js';

/** How long a worker trusts its last look at the marker: a few seconds of cases judged past the ceiling, at most one GET per run per interval. */
export const MARKER_MAX_AGE_MS = 5_000;

interface RunSpend {
  spend: number;
  /** Set for good once the marker is seen (or written): a reached ceiling is never lifted. */
  reached: boolean;
  checkedAt: number;
  /** The spend file's writes, one after another, so a later total never loses to an earlier one. */
  written: Promise<void>;
}

/**
 * One worker's side of run.max_judge_cost (a Lambda container, or the one
 * process of `assay run`). Before a case is judged, `reached` reads the
 * run's `judge-budget-reached` marker (cached MARKER_MAX_AGE_MS). After, `add`
 * adds the case's priced usage to this worker's spend on the run and writes
 * it to `runs/<run>/judge-spend/<worker>.json`, a file no other worker
 * writes, so no two writers race on one total and a redelivered case's calls
 * count again, as they were paid again. When this worker's spend alone passes
 * the ceiling it writes the marker itself; the completion check sums every
 * worker's file for the ceiling that only several pass together
 * (judge-ceiling.ts). Cases already being judged finish: the overshoot is at
 * most the cases in flight, plus, with several workers, what they judge
 * between the check that finds the ceiling passed and their next marker read.
 */
export class JudgeBudget {
  private readonly runs = new Map<string, RunSpend>();
  private readonly workerId: string;
  private readonly now: () => number;
  private readonly markerMaxAgeMs: number;

  constructor(
    private readonly store: ObjectStore,
    options: { workerId?: string; now?: () => number; markerMaxAgeMs?: number } = {},
  ) {
    // A fresh id per worker: its spend file is its own, and a restarted worker adds a file instead of overwriting one.
    this.workerId = options.workerId ?? randomUUID();
    this.now = options.now ?? Date.now;
    this.markerMaxAgeMs = options.markerMaxAgeMs ?? MARKER_MAX_AGE_MS;
  }

  /** Whether the run's judge spend has passed its ceiling, as of the last marker read. */
  async reached(runId: string): Promise<boolean> {
    const run = this.runOf(runId);
    if (run.reached || this.now() - run.checkedAt < this.markerMaxAgeMs) return run.reached;
    run.checkedAt = this.now();
    if (await budgetReached(this.store, runId)) run.reached = true;
    return run.reached;
  }

  /** Adds a case's judge usage to this worker's spend on the run; resolves once the spend (and maybe the marker) is stored. */
  async add(runId: string, ceiling: JudgeCeiling, usage: Readonly<Record<string, JudgeUsageRecord>>): Promise<void> {
    const cost = pricedSpend(usage, ceiling.prices);
    if (cost === 0) return;
    const run = this.runOf(runId);
    run.spend += cost;
    const write = async (): Promise<void> => {
      const spend = run.spend;
      await this.store.put(runKeys.judgeSpend(runId, this.workerId), JSON.stringify({ spend, currency: ceiling.prices.currency }));
      if (spend > ceiling.maxCost && !run.reached) {
        await markBudgetReached(this.store, runId, ceiling, spend);
        run.reached = true;
      }
    };
    // A failed write must not stop the ones after it; its caller sees the failure.
    run.written = run.written.catch(() => {}).then(write);
    await run.written;
  }

  private runOf(runId: string): RunSpend {
    let run = this.runs.get(runId);
    if (run === undefined) {
      run = { spend: 0, reached: false, checkedAt: Number.NEGATIVE_INFINITY, written: Promise.resolve() };
      this.runs.set(runId, run);
    }
    return run;
  }
}
