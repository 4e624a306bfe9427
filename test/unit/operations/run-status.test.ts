import { describe, expect, it } from 'vitest';
import { reportRun } from '../../../shared/reduce/reduce.js';
import { runCompletion } from '../../../shared/run/run-completion.js';
import { runKeys } from '../../../shared/run/run-identity.js';
import { describeStatus, runStatus } from '../../../shared/operations/run-status.js';
import { runStatusJson, runStatusJsonSchema } from '../../../shared/operations/run-status-json.js';
import { MemoryStore } from '../../../shared/ports/memory-store.js';
import { syntheticRun } from '../../support/synthetic-run.js';
import { failure, manifest, result, RUN_ID } from '../report/factories.js';

/** A memory store that records the prefixes it is asked to list. */
class ListingStore extends MemoryStore {
  readonly listed: string[] = [];

  override list(prefix: string): AsyncIterable<string> {
    this.listed.push(prefix);
    return super.list(prefix);
  }
}

describe('assay status', () => {
  it('counts the results and failures of a run still going', async () => {
    // Prepare: 5 cases, 3 evaluated, 1 failed, ingest done
    const store = new ListingStore();
    const ids = ['c1', 'c2', 'c3', 'c4', 'c5'];
    await store.put(runKeys.manifest(RUN_ID), JSON.stringify(manifest(ids)));
    await store.put(runKeys.ingested(RUN_ID), JSON.stringify({ run_id: RUN_ID, rows: 5, cases: 5 }));
    for (const caseId of ['c1', 'c2', 'c3']) await store.put(runKeys.result(RUN_ID, caseId), JSON.stringify(result(caseId, { bm25: {} })));
    await store.put(runKeys.failure(RUN_ID, 'c4'), JSON.stringify(failure('c4')));

    // Act
    const status = await runStatus(store, RUN_ID);

    // Assess
    expect(describeStatus(status)).toBe(
      'run run-1 (suite faq, datasets/faq/cases.jsonl): 5 cases, 3 evaluated, 1 failed, 1 pending; judging',
    );
    expect(store.listed).toEqual([`runs/${RUN_ID}/lease/`, runKeys.resultsPrefix(RUN_ID), runKeys.failuresPrefix(RUN_ID)]);
  });

  describe('says who drives a run not yet reported, from its lease, or that nothing does and how to finish it', () => {
    /** A run of 5 cases, 3 evaluated, ingest done, whose lease 000001 is `lease`. */
    async function leasedRun(lease: Record<string, unknown>): Promise<MemoryStore> {
      const store = new MemoryStore();
      const ids = ['c1', 'c2', 'c3', 'c4', 'c5'];
      await store.put(runKeys.manifest(RUN_ID), JSON.stringify(manifest(ids)));
      await store.put(runKeys.ingested(RUN_ID), JSON.stringify({ run_id: RUN_ID, rows: 5, cases: 5 }));
      for (const caseId of ['c1', 'c2', 'c3'])
        await store.put(runKeys.result(RUN_ID, caseId), JSON.stringify(result(caseId, { bm25: {} })));
      const record = {
        run_id: RUN_ID,
        command: 'assay run',
        host: 'ci-7',
        pid: 812,
        acquired_at: '2026-11-29T10:00:00.000Z',
        expires_at: '2999-01-01T00:00:00.000Z',
        released: false,
        ...lease,
      };
      await store.put(`runs/${RUN_ID}/lease/000001.json`, JSON.stringify(record));
      return store;
    }
    const FINISH = 'assay resume run-1 --store /data/.assay';
    const COUNTS = 'run run-1 (suite faq, datasets/faq/cases.jsonl): 5 cases, 3 evaluated, 0 failed, 2 pending';

    it('names the process that holds it on another machine, in words and as JSON', async () => {
      const status = await runStatus(await leasedRun({}), RUN_ID, { host: 'laptop' });
      expect(describeStatus(status, FINISH)).toBe(
        `${COUNTS}; judging, driven by assay run (process 812 on ci-7) since 2026-11-29T10:00:00.000Z`,
      );
      expect(runStatusJsonSchema.parse(runStatusJson(RUN_ID, status)).driver).toEqual({
        command: 'assay run',
        host: 'ci-7',
        pid: 812,
        since: '2026-11-29T10:00:00.000Z',
        driving: true,
      });
    });

    it('says a run whose holder stopped renewing its lease is stopped, with the command that finishes it', async () => {
      const status = await runStatus(await leasedRun({ expires_at: '2026-11-29T10:01:00.000Z' }), RUN_ID, { host: 'laptop' });
      expect(describeStatus(status, FINISH)).toBe(`${COUNTS}; stopped: assay run (process 812 on ci-7) is gone; finish it with: ${FINISH}`);
      expect(runStatusJson(RUN_ID, status).driver?.driving).toBe(false);
    });

    it('says so of a holder that let the lease go without a report (it failed), and names no command where none is known', async () => {
      const status = await runStatus(await leasedRun({ released: true }), RUN_ID, { host: 'laptop' });
      expect(describeStatus(status)).toBe(`${COUNTS}; stopped: assay run (process 812 on ci-7) let go of it before the report`);
    });

    it('says nothing of a driver for a run no command drove (a deployed run)', async () => {
      const store = await leasedRun({});
      await store.delete(`runs/${RUN_ID}/lease/000001.json`);
      expect(describeStatus(await runStatus(store, RUN_ID), FINISH)).toBe(`${COUNTS}; judging`);
    });
  });

  it('reads a reported run from its report.json without listing its results', async () => {
    // Prepare: a reported run of 120 cases with failures and missing cases
    const store = new ListingStore();
    const run = await syntheticRun(120, store);
    const { report } = await reportRun(store, await runCompletion(store, run.manifest.run_id));
    store.listed.length = 0;

    // Act
    const status = await runStatus(store, run.manifest.run_id);

    // Assess
    expect({ results: status.results, failures: status.failures }).toEqual({
      results: report.cases.evaluated,
      failures: report.cases.failed,
    });
    expect(status.report).toBe(runKeys.report(run.manifest.suite, run.manifest.run_id, 'report.json'));
    // What the gate of assay submit --wait reads: which cases failed (and why) or are missing, and more
    expect(status.reported).toEqual(report);
    expect(report.failed_cases.length).toBeGreaterThan(0);
    expect(report.missing_cases.length).toBeGreaterThan(0);
    expect(store.listed).toEqual([]);
  });
});
