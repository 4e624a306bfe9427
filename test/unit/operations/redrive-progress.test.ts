import { describe, expect, it } from 'vitest';
import { redriveFailures } from '../../../shared/operations/redrive.js';
import { runKeys } from '../../../shared/run/run-identity.js';
import { unfinishedCases } from '../../../shared/run/run-progress.js';
import { InProcessQueue } from '../../../shared/ports/in-process-queue.js';
import { MemoryStore } from '../../../shared/ports/memory-store.js';
import { syntheticRun } from '../../support/synthetic-run.js';

describe('redrive and the reducer state', () => {
  it('forgets the complete shards and the partials, so the requeued cases are waited for again', async () => {
    // Prepare: a run whose every shard a check found complete, and partials of an earlier reduce
    const store = new MemoryStore();
    const run = await syntheticRun(200, store);
    const runId = run.manifest.run_id;
    const missing = run.caseIds.filter(
      (caseId) => !run.results.some((result) => result.case_id === caseId) && !run.failures.some((failure) => failure.case_id === caseId),
    );
    for (const caseId of missing)
      await store.put(
        runKeys.failure(runId, caseId),
        JSON.stringify({ run_id: runId, case_id: caseId, error: 'x', receive_count: 3, message: '{}' }),
      );
    expect((await unfinishedCases(store, runId, run.caseIds, { shardedListingFrom: 1 })).unfinished).toEqual([]);
    await store.put(runKeys.partial(runId, 0), '{}');
    const queues = {
      cases: new InProcessQueue('cases', { visibilityTimeoutSeconds: 30 }),
      control: new InProcessQueue('control', { visibilityTimeoutSeconds: 30 }),
    };

    // Act
    const outcome = await redriveFailures(store, queues, runId, new Date('2025-01-02T03:04:05.000Z'));

    // Assess: the cases whose failure the redrive deleted are unfinished again, though their shards were complete
    const failedOnly = [
      ...new Set([
        ...missing,
        ...run.failures.map((failure) => failure.case_id).filter((caseId) => !run.results.some((result) => result.case_id === caseId)),
      ]),
    ].sort();
    // The synthetic run's results that lack a judgment would be sent again from the dataset, which this store does
    // not hold: they keep their results, and the outcome says why.
    expect(outcome).toEqual({
      kind: 'dataset-changed',
      requeued: failedOnly,
      reason: expect.stringMatching(/^the dataset \S+ is no longer in the store, so the run's cases cannot be read again from it$/),
    });
    expect(await store.get(runKeys.progress(runId))).toBeUndefined();
    expect(await store.get(runKeys.partial(runId, 0))).toBeUndefined();
    expect(new Set((await unfinishedCases(store, runId, run.caseIds, { shardedListingFrom: 1 })).unfinished)).toEqual(new Set(failedOnly));
  });

  it('sends nothing of a run with cases that have neither a result nor a failure, and says how many, for assay resume to send', async () => {
    // Prepare: a run with some cases that never ended
    const store = new MemoryStore();
    const run = await syntheticRun(40, store);
    const runId = run.manifest.run_id;
    const ended = new Set([...run.results, ...run.failures].map((record) => record.case_id));
    const cases = new InProcessQueue('cases', { visibilityTimeoutSeconds: 30 });
    const queues = { cases, control: new InProcessQueue('control', { visibilityTimeoutSeconds: 30 }) };
    const failures = await keysUnder(store, runKeys.failuresPrefix(runId));

    // Act
    const outcome = await redriveFailures(store, queues, runId, new Date('2025-01-02T03:04:05.000Z'));

    // Assess: no message sent, no failure deleted, the deadline left as it was
    expect(outcome).toEqual({ kind: 'unfinished', unfinished: run.caseIds.filter((caseId) => !ended.has(caseId)).length, cases: 40 });
    expect(cases.size).toBe(0);
    expect(await keysUnder(store, runKeys.failuresPrefix(runId))).toEqual(failures);
    expect(await store.get(runKeys.deadline(runId))).toBeUndefined();
  });
});

async function keysUnder(store: MemoryStore, prefix: string): Promise<string[]> {
  const keys: string[] = [];
  for await (const key of store.list(prefix)) keys.push(key);
  return keys;
}
