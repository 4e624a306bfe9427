import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/run-cli.js';
import { GOLDEN_MEASURE_FLAGS } from '../support/trec-measure-flags.js';

/**
 * `assay ir-metrics` against trec_eval 10.0's own outputs on its own test
 * collection (test/fixtures/trec-eval, see the README there for provenance).
 */
const fixtures = join(import.meta.dirname, '..', 'fixtures', 'trec-eval');
const fixture = (name: string): string => join(fixtures, name);
const expected = (name: string): string => readFileSync(fixture(name), 'utf8');

/** The measures ir-metrics implements, as the out.measures.* files were produced. */
const MEASURES = GOLDEN_MEASURE_FLAGS;

describe('ir-metrics prints trec_eval 10.0 output byte for byte', () => {
  it.each([
    { output: 'out.measures.q.test', args: ['-q', ...MEASURES, 'qrels.test', 'results.test'] },
    { output: 'out.measures.test', args: [...MEASURES, 'qrels.test', 'results.test'] },
    { output: 'out.measures.q.c.trunc', args: ['-q', '-c', ...MEASURES, 'qrels.test', 'results.trunc'] },
    { output: 'out.measures.q.l2.rel_level', args: ['-q', '-l2', ...MEASURES, 'qrels.rel_level', 'results.test'] },
  ])('$output', async ({ output, args }) => {
    const files = args.slice(-2).map(fixture);
    const result = await runCli(['ir-metrics', ...args.slice(0, -2), ...files]);
    expect(result.stderr).toBe('');
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe(expected(output));
  });
});

describe('ir-metrics --json carries the same doubles as trec_eval printed with %.17g', () => {
  it.each([
    { output: 'out.measures.q.test.hp', args: [...MEASURES, 'qrels.test', 'results.test'] },
    { output: 'out.measures.q.c.trunc.hp', args: ['-c', ...MEASURES, 'qrels.test', 'results.trunc'] },
    { output: 'out.measures.q.l2.rel_level.hp', args: ['-l2', ...MEASURES, 'qrels.rel_level', 'results.test'] },
  ])('$output', async ({ output, args }) => {
    const files = args.slice(-2).map(fixture);
    const result = await runCli(['ir-metrics', '--json', ...args.slice(0, -2), ...files]);
    const json = JSON.parse(result.stdout) as { per_query: Record<string, Record<string, number>>; all: Record<string, number> };
    const rows = parseTrecOutput(expected(output));
    expect(rows.length).toBe(64);
    for (const { measure, topic, value } of rows) {
      const actual = topic === 'all' ? json.all[measure] : json.per_query[topic]?.[measure];
      // Exact equality: the same double, not merely the same four decimals.
      expect({ measure, topic, value: actual }).toEqual({ measure, topic, value: Number(value) });
    }
  });
});

describe('ir-metrics matches every row of the upstream outputs for the measures it implements', () => {
  it.each([
    { output: 'out.test', args: ['qrels.test', 'results.test'] },
    { output: 'out.test.a', args: ['-m', 'all_trec', 'qrels.test', 'results.test'] },
    { output: 'out.test.aq', args: ['-m', 'all_trec', '-q', 'qrels.test', 'results.test'] },
    { output: 'out.test.aqc', args: ['-m', 'all_trec', '-q', '-c', 'qrels.test', 'results.trunc'] },
    { output: 'out.test.aql', args: ['-m', 'all_trec', '-q', '-l2', 'qrels.rel_level', 'results.test'] },
    {
      output: 'out.test.meas_params',
      args: [
        '-q',
        '-m',
        'P.5,7,3',
        '-m',
        'recall.20,2000',
        '-mndcg.1=3,2=9,4=4.5',
        '-mndcg_cut.10,20,23.4',
        '-msuccess.2,5,20',
        'qrels.test',
        'results.test',
      ],
    },
  ])('$output', async ({ output, args }) => {
    const files = args.slice(-2).map(fixture);
    const result = await runCli(['ir-metrics', ...args.slice(0, -2), ...files]);
    const ours = result.stdout.split('\n').filter(Boolean);
    const printed = new Set(ours.map((line) => line.split('\t')[0]));
    // trec_eval prints more measures than assay implements; compare the rows of those assay prints.
    const reference = expected(output)
      .split('\n')
      .filter((line) => line && printed.has(line.split('\t')[0]));
    expect(ours.length).toBeGreaterThanOrEqual(16);
    expect(ours).toEqual(reference);
  });
});

function parseTrecOutput(text: string): { measure: string; topic: string; value: string }[] {
  return text
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [measure, topic, value] = line.split('\t') as [string, string, string];
      return { measure: measure.trim(), topic, value };
    });
}
