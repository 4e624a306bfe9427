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
function dataset(rank: number, cases = CASES): string {
  const rows = Array.from({ length: cases }, (_, index) => {
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

function runArgs(file: string, out: string, options: { suite?: string; config?: string } = {}): string[] {
  return [
    'run',
    file,
    '--config',
    options.config ?? config,
    '--suite',
    options.suite ?? SUITE,
    '--store',
    store,
    '--out',
    join(folder.path, out),
  ];
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
    // Every engine × metric compared is one test of the family Holm's method adjusts across.
    const tests = Object.keys(report.comparison?.engines.search ?? {}).length;
    expect(report.comparison?.adjustment).toEqual({ method: 'holm', family: 'engine_metrics', tests, alpha: 0.05 });
    expect(regressionLines(worse.stderr)).toEqual(
      (report.comparison?.regressions ?? []).map(
        (regression) =>
          `assay: regression ${against}: search ${regression.metric} ${regression.delta.toFixed(4)} (p ${regression.p_value.toFixed(4)}, adjusted ${regression.adjusted_p_value?.toFixed(4)} (Holm's method over ${tests} tests))`,
      ),
    );
    // 10 cases that all fall: exact p = 2/2^10; Holm multiplies the smallest by the number of tests.
    expect(regressionLines(worse.stderr)[0]).toMatch(
      new RegExp(
        `: search retrieval/ground_truth/average_precision -0\\.8000 \\(p 0\\.0020, adjusted ${((tests * 2) / 1024).toFixed(4).replace('.', '\\.')} \\(Holm's method over ${tests} tests\\)\\)$`,
      ),
    );
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
        `^assay run: ${FALLING.length} metrics got significantly worse against the baseline ${runIdOf(good)} \\(--fail-on-regression\\): search retrieval/ground_truth/average_precision \\(-0\\.8000, p 0\\.00\\d\\d, adjusted 0\\.0\\d{3} \\(Holm's method over \\d+ tests\\)\\), search `,
      ),
    );
    expect(gated.stdout).toContain(join(folder.path, 'gated', 'report.json'));
    const report = reportSchema.parse(JSON.parse(await readFile(join(folder.path, 'gated', 'report.json'), 'utf8')));
    expect(report.comparison?.baseline_kind).toBe('baseline');
  });

  it('warns, and fails --fail-on-regression, when no case pairs with the baseline (the dataset was replaced), where the gate passed on nothing', async () => {
    // Prepare: the good night is the baseline; tonight's dataset has the same engine and other request ids (n01... for q01...)
    const baseline = await runBuiltCli(['baseline', 'set', runIdOf(good), '--suite', SUITE, '--store', store]);
    expect(baseline.exitCode).toBe(0);
    const replaced = await folder.write('replaced.jsonl', dataset(5).replace(/q(\d\d)/g, 'n$1'));

    // Act
    const gated = await runBuiltCli([...runArgs(replaced, 'replaced'), '--fail-on-regression']);

    // Assess: the report says so among its warnings, stderr too, and the gate fails on it
    const runId = runIdOf(gated);
    const unpaired =
      `no case pairs with the baseline ${runIdOf(good)} (cases pair by engine and request_id, and none of this run's is in it, as when the suite's dataset was replaced), ` +
      `so no regression can be found against it; if this dataset is the suite's from now on, make this run its baseline: assay baseline set ${runId}`;
    const report = reportSchema.parse(JSON.parse(await readFile(join(folder.path, 'replaced', 'report.json'), 'utf8')));
    expect(report.comparison).toMatchObject({ baseline_run_id: runIdOf(good), regressions: [], engines: {} });
    expect(report.warnings).toContain(unpaired);
    expect(gated.stderr).toContain(`assay: warning: ${unpaired}\n`);
    expect(gated.exitCode).toBe(1);
    expect(gated.stderr.trimEnd().split('\n').at(-1)).toBe(`assay run: --fail-on-regression: ${unpaired}`);
  });
});

describe('the gate decides on the p-values adjusted across engines × metrics, as run.p_value_adjustment.baseline says', () => {
  it("finds no regression in a fall on 6 cases under Holm's method (the default), and every one unadjusted", async () => {
    // Prepare: on 6 cases that all fall the exact p is 2/64 = 0.03125, below 0.05 alone,
    // above it once Holm multiplies it by the number of tests.
    const small = { suite: 'small' };
    const unadjusted = {
      suite: 'small-unadjusted',
      config: await folder.write('none.json', JSON.stringify({ judges: [], run: { p_value_adjustment: { baseline: 'none' } } })),
    };
    const firstNights = await Promise.all(
      [small, unadjusted].map(async (options) =>
        runBuiltCli(runArgs(await folder.write(`${options.suite}-good.jsonl`, dataset(1, 6)), `${options.suite}-good`, options)),
      ),
    );
    expect(firstNights.map((night) => night.exitCode)).toEqual([0, 0]);

    // Act
    const [holm, none] = await Promise.all(
      [small, unadjusted].map(async (options) =>
        runBuiltCli([
          ...runArgs(await folder.write(`${options.suite}-worse.jsonl`, dataset(5, 6)), `${options.suite}-worse`, options),
          '--fail-on-regression',
        ]),
      ),
    );

    // Assess: Holm's gate passes, saying in report.md which family it adjusted; the unadjusted one fails on the four metrics
    expect(holm?.exitCode).toBe(0);
    expect(regressionLines(holm?.stderr ?? '')).toEqual([]);
    const report = reportSchema.parse(JSON.parse(await readFile(join(folder.path, 'small-worse', 'report.json'), 'utf8')));
    const tests = report.comparison?.adjustment?.tests ?? 0;
    for (const metric of FALLING) {
      expect(report.comparison?.engines.search?.[metric]).toMatchObject({
        p_value: 0.03125,
        adjusted_p_value: Math.min(1, tests * 0.03125),
        significant: false,
      });
    }
    const markdown = await readFile(join(folder.path, 'small-worse', 'report.md'), 'utf8');
    expect(markdown).toContain(
      `No significant regression.\n\np-values adjusted by Holm's method across the ${tests} tests of this comparison (each engine × metric); significant: adjusted p < 0.05.`,
    );
    expect(none?.exitCode).toBe(1);
    expect(regressionLines(none?.stderr ?? '')).toHaveLength(FALLING.length);
    expect(regressionLines(none?.stderr ?? '')[0]).toMatch(/: search retrieval\/ground_truth\/average_precision -0\.8000 \(p 0\.0313\)$/);
  });
});
