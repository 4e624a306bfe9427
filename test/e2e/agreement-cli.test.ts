import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/run-cli.js';

const folder = mkdtempSync(join(tmpdir(), 'assay-agreement-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

function file(name: string, lines: readonly string[]): string {
  const path = join(folder, name);
  writeFileSync(path, lines.map((line) => `${line}\n`).join(''));
  return path;
}

// Human 0,0,1,1,2,2 against judge 0,1,1,2,2,2 (see test/unit/agreement for the arithmetic).
const human = file('human.qrels', ['q1 0 a 0', 'q1 0 b 0', 'q1 0 c 1', 'q1 0 d 1', 'q1 0 e 2', 'q1 0 f 2', 'q2 0 x 1']);
const judge = file('judge.qrels', ['q1 0 a 0', 'q1 0 b 1', 'q1 0 c 1', 'q1 0 d 2', 'q1 0 e 2', 'q1 0 f 2', 'q3 0 y 0']);
const first = file('first.run', ['q1 Q0 e 1 3 bm25', 'q1 Q0 a 2 2 bm25', 'q2 Q0 x 1 1 bm25']);
const second = file('second.run', ['q1 Q0 a 1 3 bm25', 'q1 Q0 b 2 2 bm25', 'q2 Q0 x 1 1 bm25']);
const third = file('third.run', ['q1 Q0 b 1 3 dense', 'q1 Q0 e 2 2 dense']);

describe('assay agreement', () => {
  it('prints the statistics with their intervals, the confusion matrix and the runs', async () => {
    // Act
    const result = await runCli([
      'agreement',
      '--human',
      human,
      '--judge',
      judge,
      '--run',
      first,
      '--run',
      second,
      '--run',
      third,
      '-m',
      'P.1',
    ]);

    // Assess
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toBe('');
    const text = result.stdout;
    expect(text).toMatch(/^pairs labelled in both: 6 \(only human: 1, only judge: 1\); systems: 3\n\n/);
    expect(text).toMatch(/\nstatistic +value +95% low +95% high\n-+ +-+ +-+ +-+\n/);
    expect(text).toMatch(/\nexact agreement +0\.6667\n/);
    expect(text).toMatch(/\nCohen's kappa +0\.5000 +-?\d\.\d{4} +\d\.\d{4}\n/);
    expect(text).toMatch(/\nweighted kappa \(quadratic\) +0\.7500 +-?\d\.\d{4} +\d\.\d{4}\n/);
    expect(text).toMatch(/\nKendall's tau-b \(P_1\) +-?\d\.\d{4}/);
    expect(text).toContain(
      [
        'human \\ judge  0  1  2',
        '-------------  -  -  -',
        '0              1  1  0',
        '1              0  1  1',
        '2              0  0  2',
      ].join('\n'),
    );
    // bm25 appears twice: the second file's run is named by its file
    expect(text).toMatch(
      /\nbm25 +\d\.\d{4} +\d\.\d{4}\nsecond\.run:bm25 +\d\.\d{4} +\d\.\d{4}\ndense +\d\.\d{4} +\d\.\d{4}\n\ncorrected by the human labels/,
    );
    // Two topics: too few labelled for an interval, and said so run by run
    expect(text).toMatch(/\nbm25 - second\.run:bm25 +P_1 +1 +1 +1\.0000 +1 labelled of 1 topics: fewer than the 8 an interval needs\n/);
  });

  it('prints the reasons of the statistics that have no value', async () => {
    const result = await runCli(['agreement', '--human', human, '--judge', judge, '--run', first]);

    expect(result.exitCode).toBe(0);
    expect(result.stdout).toMatch(/\nKendall's tau-b \(ndcg_cut_10\) +n\/a\n/);
    expect(result.stdout).toContain('\nsystems.kendall_tau: n/a, needs at least 2 runs to rank, got 1\n');
    expect(result.stdout).not.toContain('intervals.kendall_tau');
  });

  it('prints the report as JSON with --json, the same for the same seed', async () => {
    const args = [
      'agreement',
      '--human',
      human,
      '--judge',
      judge,
      '--run',
      first,
      '--run',
      third,
      '--json',
      '--seed',
      '7',
      '--resamples',
      '50',
    ];

    const once = await runCli(args);
    const twice = await runCli(args);

    expect(once.exitCode).toBe(0);
    expect(twice.stdout).toBe(once.stdout);
    const report = JSON.parse(once.stdout) as Record<string, unknown>;
    expect(Object.keys(report)).toEqual([
      'pairs',
      'human_only',
      'judge_only',
      'categories',
      'exact_agreement',
      'cohen_kappa',
      'weighted_kappa',
      'binary',
      'confusion',
      'systems',
      'intervals',
      'estimates',
      'differences',
      'reasons',
    ]);
    expect(report.intervals).toMatchObject({ level: 0.95, resamples: 50, seed: 7 });
    expect(report.systems).toMatchObject({ measure: 'ndcg_cut_10', n: 2 });
  });

  it.each([
    ['no --judge', ['--human', human], /Expected --judge <qrels>, the judgments to assess/],
    ['no --human', ['--judge', judge], /Expected --human <qrels>, the reference judgments/],
    ['a missing file', ['--human', human, '--judge', join(folder, 'absent.qrels')], /The judge qrels file .*absent\.qrels does not exist/],
    [
      'a malformed qrels line',
      ['--human', file('bad.qrels', ['q1 0 a 1', 'q1 0 b high']), '--judge', judge],
      /bad\.qrels:2: field "grade"/,
    ],
    ['a measure set', ['--human', human, '--judge', judge, '-m', 'official'], /Expected -m to name one averaged measure .* got "official"/],
    ['a list of cutoffs', ['--human', human, '--judge', judge, '-m', 'P.5,10'], /Expected -m to name one averaged measure/],
    ['a count', ['--human', human, '--judge', judge, '-m', 'num_rel'], /Expected -m to name one averaged measure/],
    ['an unknown measure', ['--human', human, '--judge', judge, '-m', 'bleu'], /Unsupported measure "bleu"/],
    ['a negative level', ['--human', human, '--judge', judge, '-l', '-1'], /Expected -l to be an integer from 0 and up, got "-1"/],
    [
      'no resamples',
      ['--human', human, '--judge', judge, '--resamples', '0'],
      /Expected --resamples to be an integer from 1 to 100000, got "0"/,
    ],
    // 100,000 took 43 s on the agreement test collection: a few extra digits would run for days.
    [
      'more resamples than the bound',
      ['--human', human, '--judge', judge, '--resamples', '999999999'],
      /Expected --resamples to be an integer from 1 to 100000, got "999999999"/,
    ],
    ['a seed that is not an integer', ['--human', human, '--judge', judge, '--seed', 'x'], /Expected --seed to be an integer/],
    ['the same run twice', ['--human', human, '--judge', judge, '--run', first, '--run', first], /Two runs are named bm25/],
    [
      'a run with no judged topic',
      ['--human', human, '--judge', judge, '--run', file('other.run', ['q9 Q0 a 1 1 x'])],
      /Run x against the human qrels: No topic/,
    ],
  ])('exits 2 with a one-line usage error for %s', async (_described, args, message) => {
    // Act
    const result = await runCli(['agreement', ...args]);

    // Assess
    expect(result.exitCode).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(message);
    expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
  });

  it('prints what docs/agreement.md shows for the example collection', async () => {
    // Prepare: the page's example, from the command line to the "..." that cuts it
    const root = join(import.meta.dirname, '..', '..');
    const page = readFileSync(join(root, 'docs', 'agreement.md'), 'utf8');
    const example = /\$ npx assay agreement (.+) \\\n +(.+)\n([\s\S]+?)\n\.\.\.\n/.exec(page);
    expect(example).not.toBeNull();
    const [, firstLine, secondLine, shown] = example as unknown as [string, string, string, string];
    const args = `${firstLine} ${secondLine}`.split(/ +/).map((arg) => (arg.startsWith('examples/') ? join(root, arg) : arg));

    // Act
    const result = await runCli(['agreement', ...args]);

    // Assess
    expect(result.exitCode).toBe(0);
    expect(result.stdout.startsWith(`${shown}\n`)).toBe(true);
  });
});
