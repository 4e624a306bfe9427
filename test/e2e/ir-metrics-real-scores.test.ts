import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/run-cli.js';
import { SHARED_TASK_MEASURE_FLAGS } from '../support/trec-measure-flags.js';

/**
 * `assay ir-metrics` against trec_eval 10.0 on scores as official runs print
 * them: long, negative, with exponents, and ties between texts that name one
 * double (test/fixtures/trec-real-scores, see the README there).
 */
const fixtures = join(import.meta.dirname, '..', 'fixtures', 'trec-real-scores');
const fixture = (name: string): string => join(fixtures, name);
const RUNS = ['run.float64', 'run.float32-negative', 'run.six-decimals'];
const MEASURES = ['-q', '-c', ...SHARED_TASK_MEASURE_FLAGS];

describe('ir-metrics prints what trec_eval prints for scores of official runs', () => {
  it.each(RUNS)('%s', async (run) => {
    const result = await runCli(['ir-metrics', ...MEASURES, fixture('qrels'), fixture(run)]);
    expect(result.stderr).toBe('');
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe(readFileSync(fixture(`out.${run}`), 'utf8'));
  });

  it('all three runs in one call, one after another', async () => {
    const result = await runCli(['ir-metrics', ...MEASURES, fixture('qrels'), ...RUNS.map(fixture)]);
    expect(result.stderr).toBe('');
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe(RUNS.map((run) => readFileSync(fixture(`out.${run}`), 'utf8')).join(''));
  });
});
