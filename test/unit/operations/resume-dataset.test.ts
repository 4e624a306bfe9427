import { describe, expect, it } from 'vitest';
import { resumeRun } from '../../../shared/operations/resume.js';
import { InProcessQueue } from '../../../shared/ports/in-process-queue.js';
import { MemoryStore } from '../../../shared/ports/memory-store.js';
import { syntheticRun } from '../../support/synthetic-run.js';

/** The dependencies resume takes, over `store`, with queues nothing reads. */
function dependenciesOf(store: MemoryStore) {
  return {
    store,
    cases: new InProcessQueue('cases', { visibilityTimeoutSeconds: 30 }),
    control: new InProcessQueue('control', { visibilityTimeoutSeconds: 30 }),
    now: () => new Date('2025-01-02T03:04:05.000Z'),
  };
}

describe("resume and the run's stored dataset", () => {
  it('says the dataset is gone when the store no longer holds it, and sends nothing', async () => {
    // Prepare: a run with unfinished cases whose dataset was never kept in this store
    const store = new MemoryStore();
    const run = await syntheticRun(40, store);
    const dependencies = dependenciesOf(store);

    // Act
    const outcome = await resumeRun(dependencies, run.manifest.run_id);

    // Assess
    expect(outcome).toEqual({
      kind: 'unresumable',
      reason: `the dataset ${run.manifest.dataset.key} is no longer in the store, so the run's cases cannot be read again from it`,
    });
    expect(await dependencies.cases.receive({ maxMessages: 10, waitSeconds: 0 })).toEqual([]);
  });

  it('says the dataset changed when the store holds another one under its key', async () => {
    // Prepare: a dataset of one case where the run had 40
    const store = new MemoryStore();
    const run = await syntheticRun(40, store);
    await store.put(run.manifest.dataset.key, `${JSON.stringify({ request_id: 'q1', request: 'one question', engine: 'e' })}\n`);

    // Act
    const outcome = await resumeRun(dependenciesOf(store), run.manifest.run_id);

    // Assess
    expect(outcome).toEqual({
      kind: 'unresumable',
      reason: `the dataset ${run.manifest.dataset.key} now has 1 case, the run had 40: it changed since the run started, so the run cannot be finished from it`,
    });
  });
});
