import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { embeddedInfrastructure } from '../../cli/run/store-and-queues.js';
import { runPipeline } from '../../cli/run/run-pipeline.js';
import { configFileSchema } from '../../shared/config/index.js';
import { reportSchema } from '../../shared/schema/report.js';
import { runCli } from '../support/run-cli.js';
import { silentProgress } from '../support/silent-progress.js';
import { createTempFolder, type TempFolder } from '../support/temp-folder.js';

const DATASET = join(import.meta.dirname, '..', '..', 'examples', 'datasets', 'search-assistant.jsonl');

let folder: TempFolder;
beforeEach(async () => {
  folder = await createTempFolder();
});
afterEach(async () => {
  await folder.remove();
});

async function run(
  dataset: string,
  name: string,
  now?: () => Date,
  judges: readonly string[] = ['document_recall'],
  run: Record<string, unknown> = {},
) {
  const out = join(folder.path, name);
  const result = await runPipeline(
    {
      ...(now === undefined ? {} : { now }),
      datasetPath: dataset,
      suite: 'example',
      config: configFileSchema.parse({ judges, run }),
      strict: false,
      noCache: true,
      concurrency: 4,
      outFolder: out,
      environment: {},
    },
    embeddedInfrastructure(join(folder.path, 'store'), 1),
    silentProgress,
  );
  return {
    runId: result.runId,
    report: reportSchema.parse(JSON.parse(await readFile(join(out, 'report.json'), 'utf8'))),
    markdown: await readFile(join(out, 'report.md'), 'utf8'),
  };
}

async function latestRunId(): Promise<string> {
  const latest = JSON.parse(await readFile(join(folder.path, 'store', 'reports', 'example', 'latest.json'), 'utf8')) as { run_id: string };
  return latest.run_id;
}

/** The same dataset where the hybrid engine puts three irrelevant documents before everything it found. */
async function degradedHybrid(): Promise<string> {
  const lines = (await readFile(DATASET, 'utf8'))
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { engine: string; retrieved_context: object[] });
  for (const row of lines) {
    if (row.engine !== 'hybrid') continue;
    const noise = [1, 2, 3].map((index) => ({ doc_uri: `noise/${index}`, content: `an unrelated passage ${index}` }));
    row.retrieved_context = [...noise, ...row.retrieved_context];
  }
  return folder.write('degraded.jsonl', lines.map((line) => JSON.stringify(line)).join('\n'));
}

describe('baselines and regressions', () => {
  it('flags the engine that put irrelevant documents first as a significant regression, and not the unchanged one', async () => {
    // Prepare: a baseline run
    const baseline = await run(DATASET, 'baseline');
    const set = await runCli(['baseline', 'set', baseline.runId, '--suite', 'example', '--store', join(folder.path, 'store')]);

    // Act: the degraded night, its p-values unadjusted, and again adjusted by Holm's method (the default)
    const degraded = await run(await degradedHybrid(), 'degraded', undefined, undefined, { p_value_adjustment: { baseline: 'none' } });
    const adjusted = await run(await degradedHybrid(), 'adjusted');

    // Assess
    expect(set.stdout).toBe(`baseline of suite example: ${baseline.runId}\n`);
    const comparison = degraded.report.comparison;
    expect(comparison).toMatchObject({ baseline_run_id: baseline.runId, baseline_kind: 'baseline' });
    const regressed = new Set(comparison?.regressions.map((regression) => `${regression.engine} ${regression.metric}`));
    expect(regressed).toContain('hybrid retrieval/ground_truth/reciprocal_rank');
    expect(regressed).toContain('hybrid retrieval/ground_truth/ndcg@5');
    expect([...regressed].some((name) => name.startsWith('bm25 '))).toBe(false);
    expect(comparison?.engines.bm25?.['retrieval/ground_truth/ndcg@5']).toMatchObject({ delta: 0, significant: false, ties: 9 });
    expect(degraded.markdown).toMatch(/## Against the baseline `r-[0-9a-f]{16}`/);
    const html = await readFile(join(folder.path, 'degraded', 'report.html'), 'utf8');
    expect(html).toContain(baseline.runId);
    // The hybrid engine lost ground on the 9 labelled cases: their per-query deltas are listed.
    expect(html).toMatch(/<h3>Per-query deltas \((\d+)\)<\/h3>/);
    expect(Number(/<h3>Per-query deltas \((\d+)\)<\/h3>/.exec(html)?.[1])).toBeGreaterThanOrEqual(9);
    // 9 labelled cases that all fall give at best p = 2/2^9 = 0.0039: Holm's first step, times the number of
    // engine × metric tests, does not reach 0.05, so the adjusted comparison finds no regression.
    const held = adjusted.report.comparison;
    const tests = held?.adjustment?.tests ?? 0;
    expect(tests * (2 / 512)).toBeGreaterThan(0.05);
    expect(held?.engines.hybrid?.['retrieval/ground_truth/reciprocal_rank']).toMatchObject({ p_value: 2 / 512, significant: false });
    expect(held?.regressions).toEqual([]);
  });

  it('with a relevance judge, corrects the ground-truth metrics against the baseline by the judge, and the corrected interval decides', async () => {
    // Prepare: the lexical chunk_relevance judge grades every case of both runs; 9 of the 21 cases have human labels
    const baseline = await run(DATASET, 'baseline', undefined, ['chunk_relevance']);

    // Act
    const degraded = await run(await degradedHybrid(), 'degraded', undefined, ['chunk_relevance']);

    // Assess
    const metric = 'retrieval/ground_truth/average_precision';
    const compared = degraded.report.comparison?.engines.hybrid?.[metric];
    const corrected = compared?.corrected?.chunk_relevance;
    expect(corrected).toMatchObject({ population: 'superpopulation', labelled: 9, cases: 12, level: 0.95 });
    expect(corrected?.corrected?.high).toBeLessThan(0);
    expect(compared?.corrected_decision).toEqual({
      judge: 'chunk_relevance',
      delta: corrected?.corrected?.mean,
      p_value: corrected?.p_value,
    });
    // The judge's p-value, far below alpha, stays so once adjusted across every engine × metric
    expect(compared?.adjusted_p_value).toBeLessThan(0.05);
    expect(degraded.report.comparison?.regressions).toContainEqual({
      engine: 'hybrid',
      metric,
      delta: corrected?.corrected?.mean,
      p_value: corrected?.p_value,
      adjusted_p_value: compared?.adjusted_p_value,
      judge: 'chunk_relevance',
    });
    expect(degraded.report.comparison?.regressions.some((regression) => regression.engine === 'bm25')).toBe(false);
    expect(degraded.markdown).toContain(`, corrected by \`chunk_relevance\`)`);
    expect(degraded.markdown).toContain(`**Against the baseline \`${baseline.runId}\` (this run − baseline):**`);
  });

  it('compares with the previous run when the suite has no baseline, and the same inputs give the same report', async () => {
    const first = await run(DATASET, 'first');
    const second = await run(DATASET, 'second');
    expect(first.report.comparison).toBeUndefined();
    expect(second.report.comparison).toMatchObject({ baseline_run_id: first.runId, baseline_kind: 'previous', regressions: [] });
    const { comparison: _ignored, run_id: _run, created_at: _created, ...secondRest } = second.report;
    const { run_id: _firstRun, created_at: _firstCreated, ...firstRest } = first.report;
    expect(secondRest).toEqual(firstRest);
  });

  it('keeps latest.json on the newest run in run time when an older run is reported late, and compares each run with the one before it', async () => {
    // Prepare: the run of the 2nd is reported first, the run of the 1st (resumed, say) after it
    const second = await run(DATASET, 'second', () => new Date('2026-11-02T00:00:00.000Z'));
    const first = await run(DATASET, 'first', () => new Date('2026-11-01T00:00:00.000Z'));
    const latestAfterFirst = await latestRunId();

    // Act: the run of the 3rd
    const third = await run(DATASET, 'third', () => new Date('2026-11-03T00:00:00.000Z'));

    // Assess: latest.json never went back to the 1st; the 1st has nothing before it to compare with
    expect(latestAfterFirst).toBe(second.runId);
    expect(first.report.comparison).toBeUndefined();
    expect(third.report.comparison).toMatchObject({ baseline_run_id: second.runId, baseline_kind: 'previous' });
    expect(await latestRunId()).toBe(third.runId);
  });

  it('warns that an engine renamed since the baseline is compared with nothing, on both sides, and compares the others', async () => {
    // Prepare: a baseline run, then the same dataset with hybrid renamed hybrid-v2
    const baseline = await run(DATASET, 'baseline');
    await runCli(['baseline', 'set', baseline.runId, '--suite', 'example', '--store', join(folder.path, 'store')]);
    const renamed = await folder.write(
      'renamed.jsonl',
      (await readFile(DATASET, 'utf8')).replaceAll('"engine": "hybrid"', '"engine": "hybrid-v2"'),
    );

    // Act
    const night = await run(renamed, 'renamed');

    // Assess: bm25 compared, and the warning names both sides of the rename
    expect(Object.keys(night.report.comparison?.engines ?? {})).toEqual(['bm25']);
    expect(night.report.warnings).toContain(
      `engines not compared with the baseline ${baseline.runId}, whose regressions cannot be seen: this run's hybrid-v2 has no case in it, ` +
        `and its hybrid is not in this run (a renamed, new or dropped engine); if this run's engines are the suite's from now on, make this run its baseline: assay baseline set ${night.runId}`,
    );
    expect(night.markdown).toContain('engines not compared with the baseline');
  });

  it('refuses a baseline without a report', async () => {
    await mkdir(join(folder.path, 'store'));
    const result = await runCli(['baseline', 'set', 'r-0000000000000000', '--store', join(folder.path, 'store')]);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('has no report in suite default');
  });

  it('says there is no store at a folder that does not exist, rather than that the run has no report', async () => {
    const result = await runCli(['baseline', 'set', 'r-0000000000000000', '--store', join(folder.path, 'nowhere')]);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toBe(
      `assay baseline set: No store at ${join(folder.path, 'nowhere')}; give the folder assay run wrote with --store, or a bucket with --bucket\n`,
    );
  });
});
