import { describe, expect, it } from 'vitest';
import { JudgeBudget } from '../../../shared/worker/judge-budget.js';
import type { JudgeCeiling } from '../../../shared/run/judge-spend.js';
import { budgetReached, checkJudgeSpend } from '../../../shared/worker/judge-ceiling.js';
import { checkRun } from '../../../shared/reduce/reduce.js';
import { runKeys } from '../../../shared/run/run-identity.js';
import { InProcessQueue } from '../../../shared/ports/in-process-queue.js';
import { MemoryStore } from '../../../shared/ports/memory-store.js';
import type { JudgeUsageRecord } from '../../../shared/schema/run-records.js';
import { manifest, RUN_ID, usage } from '../report/factories.js';

/** USD 1 per million input tokens, so a case's cost is its input tokens / 1,000,000. */
const CEILING: JudgeCeiling = {
  maxCost: 0.001,
  prices: { currency: 'USD', models: { judge: { input_per_million: 1, output_per_million: 0 } } },
};
const CONFIG = { judge: { prices: CEILING.prices }, run: { max_judge_cost: CEILING.maxCost } };

/** One case's usage: `tokens` input tokens of the priced model. */
function caseUsage(tokens: number): Record<string, JudgeUsageRecord> {
  return { correctness: usage({ calls: 1, input_tokens: tokens, models: { judge: { input_tokens: tokens, output_tokens: 0 } } }) };
}

describe('JudgeBudget', () => {
  it('marks the ceiling reached once its own spend passes it, and says so at once', async () => {
    // Prepare
    const store = new MemoryStore();
    const budget = new JudgeBudget(store, { workerId: 'worker-a' });

    // Act: 600 + 400 tokens = USD 0.001, not past the ceiling; 1 more token passes it
    await budget.add(RUN_ID, CEILING, caseUsage(600));
    await budget.add(RUN_ID, CEILING, caseUsage(400));
    const before = await budget.reached(RUN_ID);
    await budget.add(RUN_ID, CEILING, caseUsage(1));

    // Assess
    expect(before).toBe(false);
    expect(await budget.reached(RUN_ID)).toBe(true);
    expect(await budgetReached(store, RUN_ID)).toBe(true);
    const spend = JSON.parse(new TextDecoder().decode(await store.get(runKeys.judgeSpend(RUN_ID, 'worker-a')))) as { spend: number };
    expect(spend.spend).toBeCloseTo(0.001001, 12);
  });

  it('keeps the last total in its spend file when cases end at once', async () => {
    const store = new MemoryStore();
    const budget = new JudgeBudget(store, { workerId: 'worker-a' });

    await Promise.all([100, 200, 300].map((tokens) => budget.add(RUN_ID, CEILING, caseUsage(tokens))));

    const spend = JSON.parse(new TextDecoder().decode(await store.get(runKeys.judgeSpend(RUN_ID, 'worker-a')))) as { spend: number };
    expect(spend.spend).toBeCloseTo(0.0006, 12);
  });

  it('reads the marker again only when its last look is older than the cache time', async () => {
    // Prepare: another party marks the run after this worker looked
    const store = new MemoryStore();
    let now = 0;
    const budget = new JudgeBudget(store, { workerId: 'worker-a', now: () => now, markerMaxAgeMs: 5_000 });
    expect(await budget.reached(RUN_ID)).toBe(false);
    await store.put(runKeys.judgeBudgetReached(RUN_ID), '{"spend":1,"max_judge_cost":0.001,"currency":"USD"}');

    // Act and assess
    now = 4_999;
    expect(await budget.reached(RUN_ID)).toBe(false);
    now = 5_000;
    expect(await budget.reached(RUN_ID)).toBe(true);
  });

  it('leaves the ceiling to the completion check when only several workers together pass it', async () => {
    // Prepare: two workers spend USD 0.0006 each; neither alone passes 0.001
    const store = new MemoryStore();
    const run = manifest(['c1'], { config: CONFIG });
    const first = new JudgeBudget(store, { workerId: 'worker-a' });
    const second = new JudgeBudget(store, { workerId: 'worker-b' });
    await first.add(RUN_ID, CEILING, caseUsage(600));
    await second.add(RUN_ID, CEILING, caseUsage(600));
    const beforeCheck = await budgetReached(store, RUN_ID);

    // Act
    await checkJudgeSpend(store, run);

    // Assess
    expect(beforeCheck).toBe(false);
    expect(await budgetReached(store, RUN_ID)).toBe(true);
    const marker = JSON.parse(new TextDecoder().decode(await store.get(runKeys.judgeBudgetReached(RUN_ID)))) as { spend: number };
    expect(marker.spend).toBeCloseTo(0.0012, 12);
  });

  it("is summed by the reducer's completion check while the run waits for its cases", async () => {
    // Prepare: a run of two unfinished cases; two workers spend USD 0.0006 each
    const store = new MemoryStore();
    const run = manifest(['c1', 'c2'], { config: CONFIG });
    await store.put(runKeys.manifest(RUN_ID), JSON.stringify(run));
    await store.put(runKeys.caseIds(RUN_ID), JSON.stringify(['c1', 'c2']));
    await new JudgeBudget(store, { workerId: 'worker-a' }).add(RUN_ID, CEILING, caseUsage(600));
    await new JudgeBudget(store, { workerId: 'worker-b' }).add(RUN_ID, CEILING, caseUsage(600));
    const control = new InProcessQueue('control', { visibilityTimeoutSeconds: 30 });

    // Act
    const outcome = await checkRun(
      { store, control, now: () => new Date('2025-01-02T03:05:00.000Z') },
      { kind: 'check', run_id: RUN_ID, attempt: 0 },
    );

    // Assess
    expect(outcome).toMatchObject({ kind: 'wait', progress: { kind: 'cases', finished: 0, total: 2 } });
    expect(await budgetReached(store, RUN_ID)).toBe(true);
  });

  it('writes no marker while the workers together stay within the ceiling, nor for a run without one', async () => {
    const store = new MemoryStore();
    await new JudgeBudget(store, { workerId: 'worker-a' }).add(RUN_ID, CEILING, caseUsage(500));

    await checkJudgeSpend(store, manifest(['c1'], { config: CONFIG }));
    await checkJudgeSpend(store, manifest(['c1'], { config: {} }));

    expect(await budgetReached(store, RUN_ID)).toBe(false);
  });
});
