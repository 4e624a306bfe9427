import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RunFiles } from '../../../shared/compare/compare-runs.js';
import { reportJson } from '../../../shared/report/aggregate.js';
import { runCli } from '../../support/run-cli.js';
import { createTempFolder, type TempFolder } from '../../support/temp-folder.js';
import { brokenEngineRuns, CORRECTNESS, NDCG } from './factories.js';

describe('assay compare', () => {
  let folder: TempFolder;
  let folderOfA: string;
  let folderOfB: string;

  /** Writes a run's report.json and cases.jsonl as the reducer does, into `name/` of the temp folder. */
  async function writeRun(name: string, run: RunFiles): Promise<string> {
    const path = join(folder.path, name);
    await mkdir(path);
    await writeFile(join(path, 'report.json'), reportJson(run.report));
    await writeFile(join(path, 'cases.jsonl'), run.cases.map((line) => `${JSON.stringify(line)}\n`).join(''));
    return path;
  }

  beforeEach(async () => {
    folder = await createTempFolder();
    const { a, b } = brokenEngineRuns();
    folderOfA = await writeRun('a', a);
    folderOfB = await writeRun('b', b);
  });
  afterEach(async () => {
    await folder.remove();
  });

  it('prints {"adjustment": {...}, "engines": {engine: {metric: {...}}}} with --json and exits 0', async () => {
    // Act
    const result = await runCli(['compare', folderOfA, folderOfB, '--json']);

    // Assess
    expect(result.exitCode).toBe(0);
    const output = JSON.parse(result.stdout) as { adjustment: unknown; engines: Record<string, Record<string, Record<string, unknown>>> };
    expect(Object.keys(output)).toEqual(['adjustment', 'engines']);
    expect(output.adjustment).toEqual({ method: 'holm', family: 'engine_metrics', tests: 4, alpha: 0.05 });
    expect(Object.keys(output.engines)).toEqual(['broken', 'steady']);
    expect(Object.keys(output.engines.broken ?? {})).toEqual([CORRECTNESS, NDCG]);
    const broken = output.engines.broken?.[NDCG];
    expect(Object.keys(broken ?? {})).toEqual(
      expect.arrayContaining([
        'a',
        'b',
        'delta',
        'relative_delta',
        'p_value',
        't_test_p_value',
        'significant',
        'n',
        'wins',
        'losses',
        'ties',
        'adjusted_p_value',
      ]),
    );
    expect(broken).toMatchObject({ significant: true, n: 30, wins: 0, losses: 30, ties: 0 });
    expect(output.engines.steady?.[NDCG]?.significant).toBe(false);
  });

  it('prints a table per engine, ✓ on the significant row', async () => {
    const result = await runCli(['compare', folderOfA, folderOfB]);

    expect(result.exitCode).toBe(0);
    expect(result.stdout).toMatch(/^engine broken\nmetric +A +B +delta +rel\. +p +adj\. p +sig +n +W\/L\/T\n/);
    // Holm over 2 engines × 2 metrics: 4 × 1/10,001 = 0.0004.
    expect(result.stdout).toMatch(
      /\nretrieval\/ground_truth\/ndcg@10 +0\.\d{4} +0\.\d{4} +-0\.\d{4} +-0\.\d{4} +<0\.0001 +0\.0004 +✓ +30 +0\/30\/0\n/,
    );
    expect(result.stdout).toContain('\nengine steady\n');
    expect(result.stdout.match(/✓/g)).toHaveLength(1);
    expect(result.stdout).toMatch(
      /\np-values adjusted by Holm's method across the 4 tests of this comparison \(each engine × metric\); significant: adjusted p < 0\.05\.\n$/,
    );
  });

  it('exits 1 with --fail-on-regression when a metric got significantly worse, naming it', async () => {
    const result = await runCli(['compare', folderOfA, folderOfB, '--fail-on-regression']);

    expect(result.exitCode).toBe(1);
    expect(result.stdout).toContain('engine broken');
    expect(result.stderr).toMatch(
      /^assay compare: 1 metric got significantly worse: broken retrieval\/ground_truth\/ndcg@10 \(-0\.\d{4}, p 0\.0001, adjusted 0\.0004 \(Holm's method over 4 tests\)\)\n$/,
    );
  });

  it('exits 0 with --fail-on-regression when B is better', async () => {
    const result = await runCli(['compare', folderOfB, folderOfA, '--fail-on-regression']);

    expect(result.exitCode).toBe(0);
    expect(result.stderr).toBe('');
  });

  it('compares only the metrics given with --metric', async () => {
    const result = await runCli([
      'compare',
      folderOfA,
      folderOfB,
      '--json',
      '--metric',
      CORRECTNESS,
      '--permutations',
      '500',
      '--seed',
      '7',
    ]);

    const output = JSON.parse(result.stdout) as { engines: Record<string, Record<string, unknown>> };
    expect(Object.keys(output.engines.broken ?? {})).toEqual([CORRECTNESS]);
  });

  it.each<[string, (a: string, b: string) => string[], RegExp]>([
    ['a missing folder', (a) => ['compare', a, join(a, '..', 'nowhere')], /^assay compare: The report folder .*nowhere does not exist\n$/],
    [
      'a file instead of a folder',
      (a) => ['compare', a, join(a, 'report.json')],
      /is not a folder; expected a report folder with report.json and cases.jsonl/,
    ],
    [
      'an unknown metric',
      (a, b) => ['compare', a, b, '--metric', 'ndcg'],
      /No case has "ndcg" in both runs; the metrics the reports average are: response\/llm_judged\/correctness\/rating, retrieval\/ground_truth\/ndcg@10/,
    ],
    [
      'an alpha of 2',
      (a, b) => ['compare', a, b, '--alpha', '2'],
      /Expected --alpha to be a number between 0 and 1 \(exclusive\), got "2"/,
    ],
    [
      'a negative minimum effect',
      (a, b) => ['compare', a, b, '--min-effect', '-1'],
      /Expected --min-effect to be a number from 0 and up, got "-1"/,
    ],
    [
      '0 permutations',
      (a, b) => ['compare', a, b, '--permutations', '0'],
      /Expected --permutations to be an integer from 1 to 1000000, got "0"/,
    ],
    [
      // Two runs of 500 cases took 4.35 s with 1,000,000 flips: a few extra digits would run for hours.
      'more permutations than the bound',
      (a, b) => ['compare', a, b, '--permutations', '999999999'],
      /Expected --permutations to be an integer from 1 to 1000000, got "999999999"/,
    ],
    [
      'a seed that is not an integer',
      (a, b) => ['compare', a, b, '--seed', 'x'],
      /Expected --seed to be an integer from 0 to 4294967295, got "x"/,
    ],
    [
      'an adjustment that does not exist',
      (a, b) => ['compare', a, b, '--adjust', 'bonferroni'],
      /--adjust got "bonferroni"; expected one of holm, benjamini-hochberg, none/,
    ],
  ])('exits 2 with a message on %s', async (_described, args, message) => {
    const result = await runCli(args(folderOfA, folderOfB));

    expect(result.exitCode).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(message);
  });

  it.each<[string, string, string, RegExp]>([
    // An empty content means: remove the file.
    ['a missing cases.jsonl', 'cases.jsonl', '', /The cases file .*cases\.jsonl does not exist/],
    ['an invalid report.json', 'report.json', '{"run_id": "r"}', /report\.json: field "suite": /],
    ['a bad line in cases.jsonl', 'cases.jsonl', '{"case_id": "c"}\n', /cases\.jsonl:1: field "request_id": /],
  ])('exits 2 naming the file for %s', async (_described, name, content, message) => {
    // Prepare
    const path = join(folderOfB, name);
    if (content === '') await rm(path);
    else await writeFile(path, content);

    // Act
    const result = await runCli(['compare', folderOfA, folderOfB]);

    // Assess
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stderr).toContain(folderOfB);
  });
});
