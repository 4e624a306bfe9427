import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { runCli } from '../support/run-cli.js';
import { createTempFolder } from '../support/temp-folder.js';
import { GOLDEN_MEASURE_FLAGS } from '../support/trec-measure-flags.js';

/**
 * `assay ir-metrics QRELS RUN RUN...` prints what trec_eval prints when run once
 * per run file, one block after another; `--json` keys one object per run by
 * its path. The inputs and outputs are trec_eval 10.0's own (test/fixtures/trec-eval).
 */
const fixtures = join(import.meta.dirname, '..', 'fixtures', 'trec-eval');
const fixture = (name: string): string => join(fixtures, name);
const expected = (name: string): string => readFileSync(fixture(name), 'utf8');

/** The measures ir-metrics implements, as the out.measures.* files were produced. */
const MEASURES = GOLDEN_MEASURE_FLAGS;

describe('several runs in one call print trec_eval 10.0 outputs one after another, byte for byte', () => {
  it.each([
    {
      name: '-q -c, three runs',
      args: ['-q', '-c', ...MEASURES, 'qrels.test', 'results.test', 'results.trunc', 'results.test'],
      // -c changes nothing for results.test, which has every qrels topic.
      outputs: ['out.measures.q.test', 'out.measures.q.c.trunc', 'out.measures.q.test'],
    },
    {
      name: 'summary only, two runs',
      args: [...MEASURES, 'qrels.test', 'results.test', 'results.test'],
      outputs: ['out.measures.test', 'out.measures.test'],
    },
    {
      name: '-q -l2, two runs',
      args: ['-q', '-l2', ...MEASURES, 'qrels.rel_level', 'results.test', 'results.test'],
      outputs: ['out.measures.q.l2.rel_level', 'out.measures.q.l2.rel_level'],
    },
  ])('$name', async ({ args, outputs }) => {
    // Prepare
    const options = args.filter((arg) => !arg.startsWith('qrels.') && !arg.startsWith('results.'));
    const files = args.slice(options.length).map(fixture);
    // Act
    const result = await runCli(['ir-metrics', ...options, ...files]);
    // Assess
    expect(result.stderr).toBe('');
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe(outputs.map(expected).join(''));
  });
});

describe('several runs in one call equal the single-run outputs concatenated', () => {
  it.each([
    { name: 'default measures', options: [], runs: ['results.test', 'results.trunc'] },
    { name: '-q -c', options: ['-q', '-c'], runs: ['results.trunc', 'results.test', 'results.trunc'] },
    { name: '-m all_trec -q -c', options: ['-m', 'all_trec', '-q', '-c'], runs: ['results.test', 'results.trunc', 'results.test'] },
    { name: '-q -n (no summary)', options: ['-q', '-n', '-m', 'map', '-m', 'P.5'], runs: ['results.test', 'results.trunc'] },
    {
      name: '-m with parameters and runid',
      options: ['-q', '-m', 'P.5,7,3', '-mndcg_cut.10,20,23.4', '-m', 'runid'],
      runs: ['results.trunc', 'results.test'],
    },
    {
      name: '--gain exponential -l2',
      options: ['-q', '-l2', '--gain', 'exponential', '-m', 'ndcg'],
      runs: ['results.test', 'results.trunc'],
      qrels: 'qrels.rel_level',
    },
  ])('$name', async ({ options, runs, qrels = 'qrels.test' }) => {
    // Prepare
    const singles: string[] = [];
    for (const run of runs) singles.push((await runCli(['ir-metrics', ...options, fixture(qrels), fixture(run)])).stdout);
    // Act
    const result = await runCli(['ir-metrics', ...options, fixture(qrels), ...runs.map(fixture)]);
    // Assess
    expect(result.exitCode).toBe(0);
    expect(singles.every((single) => single.length > 0)).toBe(true);
    expect(result.stdout).toBe(singles.join(''));
  });
});

describe('ir-metrics --json with several runs', () => {
  const qrels = relative(process.cwd(), fixture('qrels.test'));
  const test = relative(process.cwd(), fixture('results.test'));
  const trunc = relative(process.cwd(), fixture('results.trunc'));

  it('prints one object per run, keyed by its path as given, in the order given', async () => {
    // Prepare
    const single = async (run: string): Promise<unknown> =>
      JSON.parse((await runCli(['ir-metrics', '--json', '-c', ...MEASURES, qrels, run])).stdout);
    const expectedObjects = { [trunc]: await single(trunc), [test]: await single(test) };
    // Act
    const result = await runCli(['ir-metrics', '--json', '-c', ...MEASURES, qrels, trunc, test]);
    // Assess
    expect(result.exitCode).toBe(0);
    const parsed = JSON.parse(result.stdout) as Record<string, unknown>;
    expect(Object.keys(parsed)).toEqual([trunc, test]);
    expect(parsed).toEqual(expectedObjects);
  });

  it('keeps the single-run shape for one run', async () => {
    const result = await runCli(['ir-metrics', '--json', '-m', 'P.5', qrels, test]);
    expect(JSON.parse(result.stdout)).toEqual({
      per_query: { '301': { P_5: 0 }, '302': { P_5: 0.8 }, '303': { P_5: 0 } },
      all: { P_5: 0.8 / 3 },
    });
  });

  it('rejects a run file given twice, as its key would repeat', async () => {
    const result = await runCli(['ir-metrics', '--json', qrels, test, trunc, test]);
    expect(result.exitCode).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(`Run file "${test}" is given twice`);
  });
});

describe('ir-metrics with several runs, when one of them is bad', () => {
  it('checks every run file is readable before printing anything', async () => {
    const result = await runCli(['ir-metrics', fixture('qrels.test'), fixture('results.test'), fixture('no-such-run')]);
    expect(result.exitCode).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('no-such-run');
  });

  it('names the run that shares no topic with the qrels, after printing the runs before it', async () => {
    // Prepare: a well-formed run whose only topic is not in the qrels.
    const folder = await createTempFolder();
    onTestFinished(() => folder.remove());
    const stranger = await folder.write('other-topics.run', '999 Q0 doc-1 1 1.0 other\n');
    const first = await runCli(['ir-metrics', fixture('qrels.test'), fixture('results.test')]);
    // Act
    const result = await runCli(['ir-metrics', fixture('qrels.test'), fixture('results.test'), stranger]);
    // Assess
    expect(result.exitCode).toBe(2);
    expect(result.stdout).toBe(first.stdout);
    expect(result.stderr).toContain(`${stranger}: No topic has both judgments and results`);
  });
});
