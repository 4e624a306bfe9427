import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seededRandom } from '../../shared/statistics/seeded-random.js';
import { runBuiltCli } from '../support/built-cli.js';
import { createTempFolder, type TempFolder } from '../support/temp-folder.js';

/**
 * `assay agreement` with several judges ranks them by the corrected interval
 * each gives: on 40 topics, 12 labelled by people, one judge grades one too
 * high but follows the human grades, another grades at random half the time;
 * the first is worth more human labels however their kappas compare, and the
 * ranking per unit of cost follows the costs given.
 */
let folder: TempFolder;
const files = { human: '', close: '', noisy: '', runFolder: '', runs: [] as string[] };
const TOPICS = 40;
const LABELLED = 12;

beforeAll(async () => {
  folder = await createTempFolder();
  const random = seededRandom(5);
  const human: string[] = [];
  const close: string[] = [];
  const noisy: string[] = [];
  const runs: string[][] = [[], [], [], []];
  for (let topic = 1; topic <= TOPICS; topic++) {
    for (let document = 1; document <= 10; document++) {
      const grade = random.nextBelow(4);
      close.push(`${topic} 0 d${document} ${Math.min(3, grade + 1)}`);
      noisy.push(`${topic} 0 d${document} ${random.nextBelow(2) === 0 ? grade : random.nextBelow(4)}`);
      if (topic <= LABELLED) human.push(`${topic} 0 d${document} ${grade}`);
    }
    runs.forEach((lines, run) => {
      const order = Array.from({ length: 10 }, (_, index) => index + 1);
      for (let index = order.length - 1; index > 0; index--) {
        const other = random.nextBelow(index + 1);
        [order[index], order[other]] = [order[other] as number, order[index] as number];
      }
      order.forEach((document, rank) => {
        lines.push(`${topic} Q0 d${document} ${rank + 1} ${(20 - rank).toFixed(2)} system${run}`);
      });
    });
  }
  files.human = await folder.write('human.qrels', `${human.join('\n')}\n`);
  files.close = await folder.write('close.qrels', `${close.join('\n')}\n`);
  // The noisy judge as an assay run's report folder: its judgments.qrels, and its cost in report.json.
  files.runFolder = join(folder.path, 'noisy-run');
  await mkdir(files.runFolder);
  await writeFile(join(files.runFolder, 'judgments.qrels'), `${noisy.join('\n')}\n`);
  files.runs = await Promise.all(runs.map((lines, run) => folder.write(`run${run}.txt`, `${lines.join('\n')}\n`)));
});
afterAll(() => folder.remove());

interface Ranked {
  name: string;
  width: number;
  width_ratio: number;
  labelled: number;
  equivalent_labels: number;
  kappa: number;
  cost: number | null;
  labels_per_cost: number | null;
}

const runArguments = (): string[] => files.runs.flatMap((run) => ['--run', run]);

describe('assay agreement with several judges', () => {
  it('ranks them by the corrected interval each gives, and by the human labels gained per unit of cost', async () => {
    // Act
    const outcome = await runBuiltCli([
      'agreement',
      '--human',
      files.human,
      '--judge',
      `close=${files.close}`,
      '--judge',
      `noisy=${files.runFolder}`,
      ...runArguments(),
      '--judge-cost',
      'close=4',
      '--judge-cost',
      'noisy=0.5',
      '--json',
    ]);

    // Assess
    expect(outcome.stderr).toBe('');
    expect(outcome.exitCode).toBe(0);
    const report = JSON.parse(outcome.stdout) as {
      judges: Record<string, { cohen_kappa: number; estimates: unknown[] }>;
      ranking: { measure: string; level: number; currency: string | null; by_width: Ranked[]; by_cost: Ranked[] };
    };
    expect(Object.keys(report.judges)).toEqual(['close', 'noisy']);
    expect(report.judges.close?.estimates).toHaveLength(4);
    expect(report.ranking).toMatchObject({ measure: 'ndcg_cut_10', level: 0.95, currency: null });
    const [first, second] = report.ranking.by_width;
    expect([first?.name, second?.name]).toEqual(['close', 'noisy']);
    expect(first?.width).toBeLessThan(second?.width ?? 0);
    expect(first?.equivalent_labels).toBeGreaterThan(second?.equivalent_labels ?? Number.POSITIVE_INFINITY);
    // Kappa would have picked the other: the close judge is never exactly right, the noisy one half the time.
    expect(report.judges.close?.cohen_kappa).toBeLessThan(report.judges.noisy?.cohen_kappa ?? Number.NEGATIVE_INFINITY);
    expect(first).toMatchObject({ labelled: LABELLED, kappa: report.judges.close?.cohen_kappa, cost: 4 });
    expect(first?.labels_per_cost).toBeCloseTo(((first?.equivalent_labels ?? 0) - LABELLED) / 4, 10);
    const expectedByCost = [...report.ranking.by_width]
      .sort((left, right) => (right.labels_per_cost ?? 0) - (left.labels_per_cost ?? 0))
      .map((judge) => judge.name);
    expect(report.ranking.by_cost.map((judge) => judge.name)).toEqual(expectedByCost);
  });

  it("prints each judge and the two rankings as tables, with the cost a report folder's report.json gives", async () => {
    // Prepare: a real report.json (of the example dataset), its judge cost set as a priced run would have it
    const out = join(folder.path, 'example-run');
    const run = await runBuiltCli([
      'run',
      join(import.meta.dirname, '..', '..', 'examples', 'datasets', 'search-assistant.jsonl'),
      '--out',
      out,
      '--store',
      join(folder.path, 'store'),
    ]);
    expect(run.exitCode).toBe(0);
    const report = JSON.parse(await readFile(join(out, 'report.json'), 'utf8')) as Record<string, unknown>;
    await writeFile(
      join(files.runFolder, 'report.json'),
      JSON.stringify({ ...report, judge_cost: { currency: 'EUR', total: 0.25, models: {}, judges: {}, unpriced_models: [] } }),
    );

    // Act
    const outcome = await runBuiltCli([
      'agreement',
      '--human',
      files.human,
      '--judge',
      files.close,
      '--judge',
      files.runFolder,
      ...runArguments(),
      '--judge-cost',
      'close=4',
    ]);
    const json = JSON.parse(
      (
        await runBuiltCli([
          'agreement',
          '--human',
          files.human,
          '--judge',
          files.runFolder,
          '--judge',
          files.close,
          ...runArguments(),
          '--json',
        ])
      ).stdout,
    ) as { ranking: { currency: string | null; by_width: Ranked[] } };

    // Assess
    expect(outcome.exitCode).toBe(0);
    expect(outcome.stdout).toContain('== judge close ==');
    expect(outcome.stdout).toContain('== judge noisy-run ==');
    expect(outcome.stdout).toMatch(
      /== judges ranked by the corrected 95% interval of ndcg_cut_10 \(mean over the runs\) ==\njudge +width +human only +ratio +labelled +worth \(labels\) +bias +kappa +cost \(EUR\) +labels per cost\n[- ]+\nclose +0\.\d{4} /,
    );
    expect(outcome.stdout).toMatch(/\nnoisy-run +0\.\d{4} +0\.\d{4} +\d\.\d{2} +12\.0 +\d+\.\d +[+-]\d\.\d{4} +-?\d\.\d{4} +0\.25 /);
    expect(outcome.stdout).toContain('by labels gained per unit of cost:');
    // Only the report folder's judge has a cost, in the report's currency.
    expect(json.ranking.currency).toBe('EUR');
    expect(json.ranking.by_width.map((judge) => [judge.name, judge.cost])).toEqual([
      ['close', null],
      ['noisy-run', 0.25],
    ]);
  });

  it('says which report.json is not a report', async () => {
    const broken = join(folder.path, 'broken-run');
    await mkdir(broken);
    await writeFile(join(broken, 'judgments.qrels'), await readFile(files.close, 'utf8'));
    await writeFile(join(broken, 'report.json'), '{"run_id": 1}');

    const outcome = await runBuiltCli(['agreement', '--human', files.human, '--judge', files.close, '--judge', broken, ...runArguments()]);

    expect(outcome.exitCode).toBe(2);
    expect(outcome.stderr).toContain(join(broken, 'report.json'));
  });

  it('says what is wrong: no runs to rank on, two judges of one name, a cost for no judge', async () => {
    const withoutRuns = await runBuiltCli(['agreement', '--human', files.human, '--judge', files.close, '--judge', `other=${files.close}`]);
    const twice = await runBuiltCli([
      'agreement',
      '--human',
      files.human,
      '--judge',
      files.close,
      '--judge',
      files.close,
      ...runArguments(),
    ]);
    const unknown = await runBuiltCli([
      'agreement',
      '--human',
      files.human,
      '--judge',
      files.close,
      '--judge',
      `b=${files.close}`,
      ...runArguments(),
      '--judge-cost',
      'c=1',
    ]);
    const badCost = await runBuiltCli([
      'agreement',
      '--human',
      files.human,
      '--judge',
      files.close,
      '--judge',
      `b=${files.close}`,
      ...runArguments(),
      '--judge-cost',
      'b=cheap',
    ]);

    expect([withoutRuns.exitCode, twice.exitCode, unknown.exitCode, badCost.exitCode]).toEqual([2, 2, 2, 2]);
    expect(withoutRuns.stderr).toContain('Ranking judges needs --run');
    expect(twice.stderr).toContain('Two judges are named close: name them with --judge NAME=PATH');
    expect(unknown.stderr).toContain('--judge-cost names c, which no --judge is named (judges: close, b)');
    expect(badCost.stderr).toContain('Expected --judge-cost NAME=AMOUNT with an amount from 0 up, got "b=cheap"');
  });
});
