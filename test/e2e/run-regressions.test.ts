import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reportSchema } from '../../shared/schema/report.js';
import { runBuiltCli, type BuiltCliOutcome } from '../support/built-cli.js';
import { createTempFolder, type TempFolder } from '../support/temp-folder.js';

/**
 * `assay run` against the run before it in its suite: a night whose engine
 * put its one relevant document last instead of first is significantly
 * worse on every ranking metric, and says so on stderr, one line a metric;
 * `--fail-on-regression` turns that into exit 1, after the report is written.
 */
const CASES = 10;
const SUITE = 'nightly';
/** The metrics that fall when the relevant document moves from rank 1 to rank 5 of 5 (precision and recall stay put). */
const FALLING = [
  'retrieval/ground_truth/average_precision',
  'retrieval/ground_truth/ndcg@10',
  'retrieval/ground_truth/ndcg@5',
  'retrieval/ground_truth/reciprocal_rank',
];

let folder: TempFolder;
let store: string;
let config: string;
let good: BuiltCliOutcome;
let worse: BuiltCliOutcome;

/** A dataset of one engine whose relevant document of each case is at `rank` of 5. */
function dataset(rank: number): string {
  const rows = Array.from({ length: CASES }, (_, index) => {
    const id = `q${String(index + 1).padStart(2, '0')}`;
    const documents = Array.from({ length: 5 }, (_, position) => `${id}-other-${position}`);
    documents.splice(rank - 1, 1, `${id}-answer`);
    return JSON.stringify({
      request_id: id,
      request: `question ${id}`,
      engine: 'search',
      retrieved_context: documents.map((doc_uri) => ({ doc_uri, content: `text of ${doc_uri}` })),
      expected_retrieved_context: [{ doc_uri: `${id}-answer`, grade: 1 }],
    });
  });
  return `${rows.join('\n')}\n`;
}

function runArgs(file: string, out: string): string[] {
  return ['run', file, '--config', config, '--suite', SUITE, '--store', store, '--out', join(folder.path, out)];
}

const runIdOf = (outcome: BuiltCliOutcome): string => /^run (r-[0-9a-f]{16})$/m.exec(outcome.stdout)?.[1] ?? '';
const regressionLines = (stderr: string): string[] => stderr.split('\n').filter((line) => line.startsWith('assay: regression'));

beforeAll(async () => {
  folder = await createTempFolder();
  store = join(folder.path, 'store');
  // Ground truth only: no judge, so each run takes about a second.
  config = await folder.write('config.json', JSON.stringify({ judges: [] }));
  good = await runBuiltCli(runArgs(await folder.write('good.jsonl', dataset(1)), 'good'));
  worse = await runBuiltCli(runArgs(await folder.write('worse.jsonl', dataset(5)), 'worse'));
});
afterAll(() => folder.remove());

describe('assay run and the regressions against the run before', () => {
  it('prints one stderr line per regression (engine, metric, delta, p) and exits 0 without --fail-on-regression', async () => {
    // Assess: the first night has nothing to compare with
    expect(good.exitCode).toBe(0);
    expect(regressionLines(good.stderr)).toEqual([]);

    // Assess: the second names each metric that fell, as its report does
    expect(worse.exitCode).toBe(0);
    const report = reportSchema.parse(JSON.parse(await readFile(join(folder.path, 'worse', 'report.json'), 'utf8')));
    expect(report.comparison?.regressions.map((regression) => regression.metric)).toEqual(FALLING);
    const against = `against the previous run ${runIdOf(good)}`;
    expect(regressionLines(worse.stderr)).toEqual(
      (report.comparison?.regressions ?? []).map(
        (regression) =>
          `assay: regression ${against}: search ${regression.metric} ${regression.delta.toFixed(4)} (p ${regression.p_value.toFixed(4)})`,
      ),
    );
    expect(regressionLines(worse.stderr)[0]).toMatch(/: search retrieval\/ground_truth\/average_precision -0\.8000 \(p 0\.00\d\d\)$/);
  });

  it('prints the same lines when assay resume writes the report again', async () => {
    // Act
    const resumed = await runBuiltCli(['resume', runIdOf(worse), '--store', store, '--out', join(folder.path, 'resumed')]);

    // Assess
    expect(resumed.exitCode).toBe(0);
    expect(regressionLines(resumed.stderr)).toHaveLength(FALLING.length);
    expect(regressionLines(resumed.stderr)).toEqual(regressionLines(worse.stderr));
  });

  it('exits 1 with --fail-on-regression after writing the report, the last line counting the regressions', async () => {
    // Prepare: the good night is the baseline, so a third night like the second is compared with it
    const baseline = await runBuiltCli(['baseline', 'set', runIdOf(good), '--suite', SUITE, '--store', store]);
    expect(baseline.exitCode).toBe(0);

    // Act
    const gated = await runBuiltCli([...runArgs(await folder.write('worse-again.jsonl', dataset(5)), 'gated'), '--fail-on-regression']);

    // Assess
    expect(gated.exitCode).toBe(1);
    expect(regressionLines(gated.stderr)).toHaveLength(FALLING.length);
    expect(regressionLines(gated.stderr)[0]).toMatch(new RegExp(`^assay: regression against the baseline ${runIdOf(good)}: search `));
    expect(gated.stderr.trimEnd().split('\n').at(-1)).toMatch(
      new RegExp(
        `^assay run: ${FALLING.length} metrics got significantly worse against the baseline ${runIdOf(good)} \\(--fail-on-regression\\): search retrieval/ground_truth/average_precision \\(-0\\.8000, p 0\\.00\\d\\d\\), search `,
      ),
    );
    expect(gated.stdout).toContain(join(folder.path, 'gated', 'report.json'));
    const report = reportSchema.parse(JSON.parse(await readFile(join(folder.path, 'gated', 'report.json'), 'utf8')));
    expect(report.comparison?.baseline_kind).toBe('baseline');
  });
});
