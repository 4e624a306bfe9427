import { describe, expect, it } from 'vitest';
import { previousRun, recordReportedRun, type SuiteRun } from '../../../shared/run/suite-runs.js';
import { MemoryStore } from '../../../shared/ports/memory-store.js';

const SUITE = 'nightly';

function reported(runId: string, day: number): SuiteRun {
  return {
    run_id: runId,
    created_at: `2026-11-${String(day).padStart(2, '0')}T02:00:00.000Z`,
    report: `reports/${SUITE}/${runId}/report.json`,
  };
}

async function latestOf(store: MemoryStore): Promise<SuiteRun> {
  const bytes = await store.get(`reports/${SUITE}/latest.json`);
  if (bytes === undefined) throw new Error('expected a latest.json');
  return JSON.parse(new TextDecoder().decode(bytes)) as SuiteRun;
}

describe("a suite's reported runs", () => {
  it('move latest.json forward only: a late report of an older run leaves it on the newer one', async () => {
    const store = new MemoryStore();
    await recordReportedRun(store, SUITE, reported('r-0000000000000002', 2));

    await recordReportedRun(store, SUITE, reported('r-0000000000000001', 1));

    expect(await latestOf(store)).toEqual(reported('r-0000000000000002', 2));
  });

  it('end with latest.json on the newest run whatever order many reducers finish in', async () => {
    const store = new MemoryStore();
    const runs = Array.from({ length: 20 }, (_, index) => reported(`r-${String(index).padStart(16, '0')}`, index + 1));
    // A fixed shuffle: newest in the middle, so earlier and later writers race past it.
    const order = [7, 19, 3, 12, 0, 15, 9, 1, 18, 5, 11, 2, 16, 8, 13, 4, 17, 6, 14, 10];

    await Promise.all(
      order.map((index) => {
        const run = runs[index];
        if (run === undefined) throw new Error(`Expected a run at ${index} of ${runs.length}`);
        return recordReportedRun(store, SUITE, run);
      }),
    );

    expect(await latestOf(store)).toEqual(runs[19]);
  });

  it('count the run a latest.json of an older version names, which has no index entry', async () => {
    const store = new MemoryStore();
    await store.put(`reports/${SUITE}/latest.json`, JSON.stringify(reported('r-00000000000000aa', 10)));

    await recordReportedRun(store, SUITE, reported('r-00000000000000bb', 9));

    expect((await latestOf(store)).run_id).toBe('r-00000000000000aa');
    expect(await previousRun(store, SUITE, reported('r-00000000000000cc', 11))).toEqual(reported('r-00000000000000aa', 10));
  });

  it('give as the previous run the newest one before it in run time, never itself or a newer one', async () => {
    const store = new MemoryStore();
    for (const [runId, day] of [
      ['r-0000000000000001', 1],
      ['r-0000000000000003', 3],
      ['r-0000000000000005', 5],
    ] as const) {
      await recordReportedRun(store, SUITE, reported(runId, day));
    }

    expect((await previousRun(store, SUITE, reported('r-0000000000000004', 4)))?.run_id).toBe('r-0000000000000003');
    expect((await previousRun(store, SUITE, reported('r-0000000000000003', 3)))?.run_id).toBe('r-0000000000000001');
    // Same time as r-…01, but a lower id: it comes first, so nothing is before it.
    expect(await previousRun(store, SUITE, reported('r-0000000000000000', 1))).toBeUndefined();
  });

  it('order runs of the same time by run id, so every writer agrees which is newest', async () => {
    const store = new MemoryStore();
    await recordReportedRun(store, SUITE, reported('r-00000000000000ff', 7));

    await recordReportedRun(store, SUITE, reported('r-00000000000000ee', 7));

    expect((await latestOf(store)).run_id).toBe('r-00000000000000ff');
  });
});
