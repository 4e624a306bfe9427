import { describe, expect, it } from 'vitest';
import { reportRun } from '../../../shared/reduce/reduce.js';
import { runCompletion } from '../../../shared/run/run-completion.js';
import { runKeys } from '../../../shared/run/run-identity.js';
import { MemoryStore } from '../../../shared/ports/memory-store.js';
import { syntheticRun } from '../../support/synthetic-run.js';

/** The report files of a synthetic run (its results carry chunk judge grades) whose config lists `judges`. */
async function reportWith(judges: string[] | undefined) {
  const store = new MemoryStore();
  const run = await syntheticRun(120, store);
  const manifest = { ...run.manifest, config: { ...run.manifest.config, ...(judges === undefined ? {} : { judges }) } };
  await store.put(runKeys.manifest(manifest.run_id), JSON.stringify(manifest));
  const reported = await reportRun(store, await runCompletion(store, manifest.run_id));
  const qrels = new TextDecoder().decode(await store.get(runKeys.report(manifest.suite, manifest.run_id, 'judgments.qrels')));
  return { report: reported.report, qrels };
}

describe('the report of a run', () => {
  it('reads the judge grades back from cases.jsonl for judgments.qrels and the agreement', async () => {
    // Act
    const { report, qrels } = await reportWith(undefined);

    // Assess
    expect(qrels).not.toBe('');
    expect(report.agreement).toBeDefined();
  });

  it('whose config lists no judge (ground truth only) has an empty judgments.qrels and no agreement, without reading cases.jsonl again', async () => {
    // Act: the same records, but the run's own config says no judge ran
    const { report, qrels } = await reportWith([]);

    // Assess
    expect(qrels).toBe('');
    expect(report.agreement).toBeUndefined();
  });
});
