import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { embeddedInfrastructure } from '../../cli/run/store-and-queues.js';
import { createScheduledTriggerHandler } from '../../functions/scheduled-trigger.js';
import { quietTelemetry } from '../support/quiet-telemetry.js';
import { configFileSchema } from '../../shared/config/index.js';
import { uploadInput } from '../../cli/run/upload-input.js';
import { createTempFolder, type TempFolder } from '../support/temp-folder.js';

const DATASET = join(import.meta.dirname, '..', '..', 'examples', 'datasets', 'search-assistant.jsonl');

let folder: TempFolder;
beforeEach(async () => {
  folder = await createTempFolder();
});
afterEach(async () => {
  await folder.remove();
});

describe('the nightly trigger', () => {
  it("re-runs each suite's newest stored dataset once a night, and skips a suite without one", async () => {
    // Prepare: two stored datasets for one suite, none for another
    const infrastructure = embeddedInfrastructure(join(folder.path, 'store'));
    await infrastructure.store.upload('datasets/nightly/2026-10-01.jsonl', DATASET);
    await infrastructure.store.upload('datasets/nightly/2026-11-01.jsonl', DATASET);
    let now = new Date('2026-11-22T03:00:00Z');
    const trigger = createScheduledTriggerHandler(
      {
        store: infrastructure.store,
        cases: infrastructure.cases,
        control: infrastructure.control,
        now: () => now,
        configFor: async () => ({ config: { ...configFileSchema.parse({}), strict: false }, judgeSummary: 'none' }),
      },
      ['nightly', 'empty'],
      quietTelemetry(),
    );

    // Act: the schedule fires, fires again the same night, then the next night
    const first = await trigger({});
    const again = await trigger({});
    now = new Date('2026-11-23T03:00:00Z');
    const nextNight = await trigger({});

    // Assess
    expect(first).toEqual([
      { suite: 'nightly', outcome: { kind: 'started', runId: expect.stringMatching(/^r-/), cases: 12, inputErrors: 0 } },
      { suite: 'empty', skipped: 'no dataset under datasets/empty/' },
    ]);
    const runOf = (outcomes: typeof first) => (outcomes[0] as { outcome: { runId: string } }).outcome.runId;
    expect(again[0]).toEqual({ suite: 'nightly', outcome: { kind: 'duplicate', runId: runOf(first) } });
    expect(runOf(nextNight)).not.toBe(runOf(first));
    const manifest = JSON.parse(new TextDecoder().decode(await infrastructure.store.get(`runs/${runOf(first)}/manifest.json`)));
    expect(manifest).toMatchObject({ trigger: 'schedule:2026-11-22', dataset: { key: 'datasets/nightly/2026-11-01.jsonl' } });
  });

  it('re-runs a stored TREC collection from its manifest, not from one of its files', async () => {
    // Prepare: a collection as assay submit stores it; its corpus sorts after the manifest
    const store = join(folder.path, 'store');
    const infrastructure = embeddedInfrastructure(store);
    const fixture = (name: string) => join(import.meta.dirname, '..', 'fixtures', 'trec-eval', name);
    const corpus = await folder.write('corpus.jsonl', '{"_id": "FBIS3-10082", "text": "a document"}\n');
    const queries = await folder.write('queries.tsv', '301\tinternational organized crime\n');
    await uploadInput(infrastructure.store, 'trec', {
      collection: { qrels: fixture('qrels.test'), runs: [fixture('results.test')], queries, corpus },
    });
    const trigger = createScheduledTriggerHandler(
      {
        store: infrastructure.store,
        cases: infrastructure.cases,
        control: infrastructure.control,
        now: () => new Date('2026-11-22T03:00:00Z'),
        configFor: async () => ({ config: { ...configFileSchema.parse({}), strict: false }, judgeSummary: 'none' }),
      },
      ['trec'],
      quietTelemetry(),
    );

    // Act
    const [scheduled] = await trigger({});

    // Assess
    expect(scheduled).toEqual({
      suite: 'trec',
      outcome: { kind: 'started', runId: expect.stringMatching(/^r-/), cases: 3, inputErrors: 0 },
    });
  });
});
