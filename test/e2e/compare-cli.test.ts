import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunFiles } from '../../shared/compare/compare-runs.js';
import { reportJson } from '../../shared/report/aggregate.js';
import { runBuiltCli } from '../support/built-cli.js';
import { createTempFolder, type TempFolder } from '../support/temp-folder.js';
import { NDCG, runFiles, type CaseSpec } from '../unit/compare/factories.js';

/**
 * `assay compare A B` as a user meets it: runs that share no engine are told
 * so, with each run's engines, and an explanation that is no number (why a
 * judge gives no corrected interval) goes under the table, not into it.
 */
const TWIN = 'retrieval/llm_judged/graded_relevance/qrels/ndcg@10';
let folder: TempFolder;

beforeAll(async () => {
  folder = await createTempFolder();
});
afterAll(() => folder.remove());

/** Writes a run's report.json and cases.jsonl as the reducer does, into `name/` of the temp folder. */
async function writeRun(name: string, run: RunFiles): Promise<string> {
  const path = join(folder.path, name);
  await mkdir(path);
  await writeFile(join(path, 'report.json'), reportJson(run.report));
  await writeFile(join(path, 'cases.jsonl'), run.cases.map((line) => `${JSON.stringify(line)}\n`).join(''));
  return path;
}

/** `size` cases of the engines, the first `labelled` with the human ndcg@10, every one with the judge's; `shift` moves both. */
function cases(engines: readonly string[], size: number, labelled: number, shift: number): CaseSpec[] {
  return Array.from({ length: size }, (_, index) => {
    const human = 0.3 + ((index * 7) % 10) / 20 + shift;
    const metrics = { [TWIN]: human + 0.1, ...(index < labelled ? { [NDCG]: human } : {}) };
    return { requestId: `q${String(index).padStart(3, '0')}`, engines: Object.fromEntries(engines.map((engine) => [engine, metrics])) };
  });
}

describe('assay compare', () => {
  it('says the two runs share no engine, listing each run’s engines, instead of blaming the metric', async () => {
    // Prepare
    const a = await writeRun('engines-a', runFiles('r-a', cases(['bm25', 'dense'], 10, 10, 0)));
    const b = await writeRun('engines-b', runFiles('r-b', cases(['hybrid'], 10, 10, 0)));

    // Act: with a metric both runs have, and without one
    const withMetric = await runBuiltCli(['compare', a, b, '--metric', NDCG]);
    const withoutMetric = await runBuiltCli(['compare', a, b]);

    // Assess
    const message = `assay compare: the two runs share no engine, and cases are compared engine by engine: ${a} has bm25, dense; ${b} has hybrid\n`;
    expect(withMetric.exitCode).toBe(2);
    expect(withMetric.stderr).toBe(message);
    expect(withoutMetric.exitCode).toBe(2);
    expect(withoutMetric.stderr).toBe(message);
  });

  it('says the two runs share no case (runs of two datasets), with some request ids of each, instead of an empty table and exit 0', async () => {
    // Prepare: one engine in both, and no request_id in both
    const a = await writeRun('cases-a', runFiles('r-a', cases(['bm25'], 10, 10, 0)));
    const b = await writeRun(
      'cases-b',
      runFiles(
        'r-b',
        cases(['bm25'], 2, 2, 0).map((spec) => ({ ...spec, requestId: spec.requestId.replace('q', 'n') })),
      ),
    );

    // Act
    const gated = await runBuiltCli(['compare', a, b, '--fail-on-regression']);

    // Assess
    expect(gated.exitCode).toBe(2);
    expect(gated.stderr).toBe(
      `assay compare: the two runs share no case, and cases are paired by request_id within each engine: ${a} has q000, q001, q002, ... (10); ${b} has n000, n001; compare two runs of one dataset\n`,
    );
  });

  it('keeps the reason a judge gives no interval under the table, a short mark in its cell', async () => {
    // Prepare: 5 labelled of 60 cases, fewer than the 8 a corrected interval needs
    const a = await writeRun('few-a', runFiles('r-a', cases(['search'], 60, 5, 0)));
    const b = await writeRun('few-b', runFiles('r-b', cases(['search'], 60, 5, -0.05)));

    // Act
    const outcome = await runBuiltCli(['compare', a, b, '--metric', NDCG]);

    // Assess
    expect(outcome.exitCode).toBe(0);
    const lines = outcome.stdout.split('\n');
    const header = lines.findIndex((line) => line.startsWith('metric '));
    const table = lines.slice(header, lines.indexOf('', header));
    expect(table.filter((line) => line.includes('fewer than'))).toEqual([]);
    expect(Math.max(...table.map((line) => line.length))).toBeLessThan(110);
    expect(table.find((line) => line.startsWith('  corrected by graded_relevance'))).toMatch(/ no interval \[1\] +5\/60$/);
    expect(lines.slice(header + table.length)).toContain('[1] 5 labelled of 60 cases: fewer than the 8 an interval needs');
  });
});
