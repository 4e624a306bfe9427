import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { createTempFolder } from '../support/temp-folder.js';
import { GOLDEN_MEASURE_FLAGS } from '../support/trec-measure-flags.js';

/**
 * The built CLI scores several runs on worker threads, one a core, and must
 * print exactly what trec_eval prints run once per file, in the order given
 * (trec_eval 10.0's own outputs, test/fixtures/trec-eval). The in-process CLI
 * the other tests call scores them in one thread.
 */
const ROOT = join(import.meta.dirname, '..', '..');
const fixture = (name: string): string => join(ROOT, 'test', 'fixtures', 'trec-eval', name);
const MEASURES = GOLDEN_MEASURE_FLAGS;

async function assay(args: readonly string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [join(ROOT, 'cli', 'bin.js'), ...args], { cwd: ROOT });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

describe('ir-metrics on worker threads', () => {
  it('prints five runs in the order given, byte for byte as trec_eval once per run', async () => {
    const runs = ['results.test', 'results.trunc', 'results.test', 'results.trunc', 'results.test'];

    const result = await assay(['ir-metrics', '-q', '-c', ...MEASURES, fixture('qrels.test'), ...runs.map(fixture)]);

    const expected = [
      'out.measures.q.test',
      'out.measures.q.c.trunc',
      'out.measures.q.test',
      'out.measures.q.c.trunc',
      'out.measures.q.test',
    ];
    expect(result).toEqual({ code: 0, stdout: expected.map((name) => readFileSync(fixture(name), 'utf8')).join(''), stderr: '' });
  });

  it('names a bad qrels file as the single-thread CLI does, before scoring any run', async () => {
    const folder = await createTempFolder();
    try {
      // Prepare
      const badQrels = await folder.write('bad.qrels', '1 0 doc1\n');

      // Act
      const result = await assay(['ir-metrics', ...MEASURES, badQrels, fixture('results.test'), fixture('results.trunc')]);

      // Assess: the qrels' own message, not one charged to the first run file
      expect(result).toEqual({
        code: 2,
        stdout: '',
        stderr: `assay ir-metrics: ${badQrels}:1: expected 4 fields "qid iter docno grade", found 3 (fix: write one judgment per line as: topic-id 0 document-id grade)\n`,
      });
    } finally {
      await folder.remove();
    }
  });

  it('prints the runs before a bad one, then names the bad one and exits 2', async () => {
    const folder = await createTempFolder();
    try {
      const bad = await folder.write('bad.run', '1 Q0 doc1 1\n');

      const result = await assay(['ir-metrics', ...MEASURES, fixture('qrels.test'), fixture('results.test'), bad, fixture('results.test')]);

      expect(result.code).toBe(2);
      expect(result.stdout).toBe(readFileSync(fixture('out.measures.test'), 'utf8'));
      expect(result.stderr).toBe(
        `assay ir-metrics: ${bad}:1: expected at least 6 fields "qid iter docno rank score tag", found 4 (fix: write one retrieved document per line as: topic-id Q0 document-id rank score run-tag)\n`,
      );
    } finally {
      await folder.remove();
    }
  });
});
