import { describe, expect, it } from 'vitest';
import { readAttemptError } from '../../../shared/worker/attempt-error.js';
import { evaluateCaseMessage } from '../../../shared/worker/evaluate-case.js';
import { runKeys } from '../../../shared/run/run-identity.js';
import { knownManifest, runConfigOf, StoredConfigError } from '../../../shared/run/stored-config.js';
import { MemoryStore } from '../../../shared/ports/memory-store.js';
import { caseMessageSchema } from '../../../shared/schema/pipeline-messages.js';
import { RecordingStore } from '../../support/recording-store.js';
import { manifest } from '../report/factories.js';

/** A manifest's config as an assay before run.judge_depth, run.list_depth, run.engine_concurrency and strict wrote it. */
const OLDER_CONFIG = {
  judge: { temperature: 0 },
  run: { cutoffs: [3], deadline_seconds: 600, check_delay_seconds: 2 },
  judges: ['correctness'],
};

describe('runConfigOf: a run config read from its manifest', () => {
  it('parses a manifest written before newer keys existed, with their defaults', () => {
    // Prepare
    const stored = manifest(['q1'], { run_id: 'r-older', config: OLDER_CONFIG });

    // Act
    const config = runConfigOf(stored);

    // Assess: what the manifest holds is kept, what it lacks is the schema's default
    expect(config.run).toEqual({
      cutoffs: [3],
      deadline_seconds: 600,
      check_delay_seconds: 2,
      judge_depth: 10,
      list_depth: 100,
      engine_concurrency: 8,
      corrected_estimates: { level: 0.95, min_labelled: 8 },
      p_value_adjustment: { baseline: 'holm', leaderboard: 'benjamini-hochberg' },
    });
    expect(config.strict).toBe(false);
    expect(config.judges).toEqual(['correctness']);
  });

  it.each([
    [
      'a value of the wrong type',
      { run: { cutoffs: 'five' } },
      'runs/r-edited/manifest.json (run r-edited), its config: field "run.cutoffs": expected a list, got "five" (fix: give a list of whole numbers from 1 up, e.g. [5, 10])',
    ],
    [
      'a judge renamed',
      { judges: ['corectness'] },
      'runs/r-edited/manifest.json (run r-edited), its config: field "judges[0]": unknown judge "corectness"',
    ],
    [
      'a missing field of a custom judge',
      { custom_judges: [{ id: 'tone', assessment: 'ANSWER', scale: 'yes_no' }] },
      'field "custom_judges[0].template" (judge "tone"): is missing',
    ],
    ['a key no assay writes', { run: { cutoff: [5] } }, 'field "run.cutoff": unknown key'],
  ])('fails on %s, naming the run, its manifest and the field', (_case, config, message) => {
    // Prepare
    const stored = manifest(['q1'], { run_id: 'r-edited', config });

    // Act
    const read = () => runConfigOf(stored);

    // Assess
    expect(read).toThrow(StoredConfigError);
    expect(read).toThrow(message);
  });
});

describe('the judge worker on a run whose stored config does not parse', () => {
  it('fails the case with the reason, naming the run and the field, where the failure recorder reads it', async () => {
    // Prepare: a manifest whose cutoffs were edited by hand
    const store = new MemoryStore();
    await store.put(
      runKeys.manifest('r-edited'),
      JSON.stringify(manifest(['q1'], { run_id: 'r-edited', config: { run: { cutoffs: [0] } } })),
    );
    const message = caseMessageSchema.parse({
      kind: 'case',
      run_id: 'r-edited',
      case_id: 'q1',
      case: { request_id: 'q1', request: 'q', tags: {}, engines: { bm25: { tags: {}, retrieved_context: [] } } },
    });

    // Act
    const outcome = await evaluateCaseMessage({ store, judgingFor: () => ({ backend: { kind: 'lexical' }, judges: [] }) }, message, {
      messageId: 'm-1',
      receiveCount: 1,
    });

    // Assess
    const reason =
      'runs/r-edited/manifest.json (run r-edited), its config: field "run.cutoffs[0]": expected a number > 0, got number 0 (fix: give a list of whole numbers from 1 up, e.g. [5, 10])';
    expect(outcome.kind).toBe('failed');
    expect(outcome.kind === 'failed' ? outcome.error : '').toContain(reason);
    const recorded = await readAttemptError(store, 'r-edited', 'q1');
    expect(recorded?.ok === true ? recorded.value : '').toContain(reason);
  });
});

describe('knownManifest', () => {
  it("reads a run's manifest once per store, and each store's own", async () => {
    // Prepare: the same run id in two stores, with different manifests
    const first = new RecordingStore(new MemoryStore());
    const second = new RecordingStore(new MemoryStore());
    await first.put(runKeys.manifest('r1'), JSON.stringify(manifest(['q1'], { run_id: 'r1' })));
    await second.put(runKeys.manifest('r1'), JSON.stringify(manifest(['q1', 'q2'], { run_id: 'r1' })));

    // Act
    const reads = [await knownManifest(first, 'r1'), await knownManifest(first, 'r1'), await knownManifest(second, 'r1')];

    // Assess
    expect(reads.map((read) => read.cases)).toEqual([1, 1, 2]);
    expect(first.reads).toEqual([runKeys.manifest('r1')]);
    expect(second.reads).toEqual([runKeys.manifest('r1')]);
  });

  it('fails on a run without a manifest, and reads it once it is there', async () => {
    // Prepare
    const store = new RecordingStore(new MemoryStore());

    // Act, Assess
    await expect(knownManifest(store, 'r2')).rejects.toThrow('Run r2 has no manifest (runs/r2/manifest.json)');
    await store.put(runKeys.manifest('r2'), JSON.stringify(manifest(['q1'], { run_id: 'r2' })));
    expect((await knownManifest(store, 'r2')).run_id).toBe('r2');
  });
});
