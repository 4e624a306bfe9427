import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { reportSchema } from '../../shared/schema/report.js';
import { useCatalogJudgeRun } from '../support/catalog-judge-run.js';
import { runCli } from '../support/run-cli.js';

/**
 * Thresholds in the config as a CI gate: each case line of cases.jsonl gets
 * its checks, report.json each engine's pass rate, and `--fail-under`
 * decides the exit status, against the OpenAI-compatible test server.
 */
const DATASET = join(import.meta.dirname, '..', '..', 'examples', 'datasets', 'search-assistant.jsonl');
const CORRECTNESS = 'response/llm_judged/correctness/rating';
const PRECISION = 'retrieval/llm_judged/chunk_relevance/precision';

const run = useCatalogJudgeRun();

async function gatedRun(failUnder: string, name: string) {
  const config = await run.folder.write(
    'gate.yaml',
    `judges: [chunk_relevance, correctness]\nthresholds:\n  ${CORRECTNESS}: "yes"\n  ${PRECISION}: 0.5\n`,
  );
  const out = join(run.folder.path, name);
  const result = await runCli([
    'run',
    DATASET,
    '--config',
    config,
    '--store',
    join(run.folder.path, 'store'),
    '--out',
    out,
    '--fail-under',
    failUnder,
  ]);
  const report = reportSchema.parse(JSON.parse(await readFile(join(out, 'report.json'), 'utf8')));
  const lines = (await readFile(join(out, 'cases.jsonl'), 'utf8'))
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { engine: string; metrics: Record<string, unknown> });
  return { result, report, lines };
}

describe('thresholds and --fail-under', () => {
  it("checks every case line, reports each engine's pass rate, and exits by the gate", async () => {
    // Act: a gate every engine clears, then one no engine can
    const lenient = await gatedRun('0', 'lenient');
    const strict = await gatedRun('1', 'strict');

    // Assess: each line's checks agree with its own metrics, and the pass rate is their share
    for (const engine of ['bm25', 'hybrid']) {
      const lines = lenient.lines.filter((line) => line.engine === engine);
      const expected = lines.map((line) => {
        const checks = [
          ...(CORRECTNESS in line.metrics ? [line.metrics[CORRECTNESS] === 'yes'] : []),
          ...(PRECISION in line.metrics ? [typeof line.metrics[PRECISION] === 'number' && (line.metrics[PRECISION] as number) >= 0.5] : []),
        ];
        expect(line.metrics[`thresholds/${PRECISION}/check`]).toBe(
          PRECISION in line.metrics ? (checks.at(-1) ? 'pass' : 'fail') : undefined,
        );
        return checks.length === 0 ? undefined : checks.every(Boolean) ? 1 : 0;
      });
      const applicable = expected.filter((value): value is 0 | 1 => value !== undefined);
      expect(lenient.report.engines[engine]?.['thresholds/pass/count']).toBe(applicable.length);
      expect(lenient.report.engines[engine]?.['thresholds/pass/average']).toBeCloseTo(
        applicable.reduce<number>((sum, value) => sum + value, 0) / applicable.length,
        12,
      );
    }
    expect(lenient.result.exitCode).toBe(0);
    expect(strict.result.exitCode).toBe(1);
    expect(strict.result.stderr.trimEnd().split('\n').at(-1)).toMatch(
      /^assay run: pass rate under --fail-under 1: (bm25|hybrid) 0\.\d{4} of \d+ cases/,
    );
  });

  it('refuses --fail-under without thresholds in the config, before any work', async () => {
    const result = await runCli([
      'run',
      DATASET,
      '--judges',
      'correctness',
      '--store',
      join(run.folder.path, 'store'),
      '--out',
      join(run.folder.path, 'out'),
      '--fail-under',
      '0.9',
    ]);

    expect(result.exitCode).toBe(2);
    expect(result.stderr).toBe(
      'assay run: --fail-under needs thresholds: in the config file; expected e.g. thresholds: {response/llm_judged/correctness/rating: yes}\n',
    );
    expect(run.server.log).toHaveLength(0);
  });
});
