import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addCase, correctedMean, emptyPairedSums } from '../../shared/statistics/prediction-powered-mean.js';
import { seededRandom } from '../../shared/statistics/seeded-random.js';
import { runBuiltCli } from '../support/built-cli.js';
import { createTempFolder, type TempFolder } from '../support/temp-folder.js';
import { describeNoInterval } from '../../shared/statistics/corrected-estimate.js';

/**
 * `assay agreement` with runs corrects each run's measure by the judge: on a
 * small collection of 30 topics, all graded by a judge that grades one too
 * high, 12 of them by people, the judge-only mean is off by the judge's bias,
 * and the corrected estimate is the one the published formula gives on the
 * per-topic values `assay ir-metrics -q` prints under each qrels.
 */
let folder: TempFolder;
const files = { human: '', judge: '', runs: [] as string[] };
const TOPICS = 30;
const LABELLED = 12;

beforeAll(async () => {
  folder = await createTempFolder();
  const random = seededRandom(31);
  const human: string[] = [];
  const judge: string[] = [];
  const runs: string[][] = [[], [], []];
  for (let topic = 1; topic <= TOPICS; topic++) {
    for (let document = 1; document <= 8; document++) {
      const grade = random.nextBelow(4);
      // The judge grades every topic, one grade too high but for the best documents.
      judge.push(`${topic} 0 d${document} ${Math.min(3, grade + 1)}`);
      if (topic <= LABELLED) human.push(`${topic} 0 d${document} ${grade}`);
    }
    runs.forEach((lines, run) => {
      const order = Array.from({ length: 8 }, (_, index) => index + 1).sort(
        () => (random.nextBelow(3) === 0 ? -1 : 1) * (run === 0 ? 1 : -1),
      );
      order.forEach((document, rank) => {
        lines.push(`${topic} Q0 d${document} ${rank + 1} ${(10 - rank).toFixed(2)} system${run}`);
      });
    });
  }
  files.human = await folder.write('human.qrels', `${human.join('\n')}\n`);
  files.judge = await folder.write('judge.qrels', `${judge.join('\n')}\n`);
  files.runs = await Promise.all(runs.map((lines, run) => folder.write(`run${run}.txt`, `${lines.join('\n')}\n`)));
});
afterAll(() => folder.remove());

/** Per topic, the measure of a run under one qrels, as `assay ir-metrics -q --json` prints it. */
async function perTopic(qrels: string, run: string): Promise<Map<string, number>> {
  const { stdout } = await runBuiltCli(['ir-metrics', '--json', '-m', 'ndcg_cut.10', qrels, run]);
  const parsed = JSON.parse(stdout) as { per_query: Record<string, { ndcg_cut_10: number }> };
  return new Map(Object.entries(parsed.per_query).map(([topic, values]) => [topic, values.ndcg_cut_10]));
}

describe('assay agreement with runs: measures corrected by the judge', () => {
  it('gives each run and each pair of runs the corrected estimate of the mean over the judged topics', async () => {
    // Act
    const outcome = await runBuiltCli([
      'agreement',
      '--human',
      files.human,
      '--judge',
      files.judge,
      ...files.runs.flatMap((run) => ['--run', run]),
      '-m',
      'ndcg_cut.10',
      '-m',
      'map',
      '--json',
    ]);

    // Assess
    expect(outcome.exitCode).toBe(0);
    const report = JSON.parse(outcome.stdout) as {
      estimates: {
        run: string;
        measure: string;
        unit: string;
        cases: number;
        labelled: number;
        judge_only: number;
        human_only: { mean: number };
        corrected: { mean: number; low: number; high: number; weight: number };
      }[];
      differences: { runs: [string, string]; measure: string; corrected?: { mean: number } }[];
    };
    expect(report.estimates.map((estimate) => [estimate.run, estimate.measure, estimate.unit, estimate.cases, estimate.labelled])).toEqual(
      ['ndcg_cut_10', 'map'].flatMap((measure) =>
        ['system0', 'system1', 'system2'].map((run) => [run, measure, 'topics', TOPICS, LABELLED]),
      ),
    );
    expect(report.differences.map((difference) => [...difference.runs, difference.measure])).toEqual(
      ['ndcg_cut_10', 'map'].flatMap((measure) => [
        ['system0', 'system1', measure],
        ['system0', 'system2', measure],
        ['system1', 'system2', measure],
      ]),
    );
    // The same as the formula on the per-topic values under each qrels
    const [judged, labelled] = await Promise.all([perTopic(files.judge, files.runs[0] ?? ''), perTopic(files.human, files.runs[0] ?? '')]);
    const sums = emptyPairedSums();
    for (const topic of [...judged.keys()].sort()) addCase(sums, judged.get(topic) ?? Number.NaN, labelled.get(topic));
    const expected = correctedMean(sums, { level: 0.95, minLabelled: 8 });
    if (!expected.ok) throw new Error(describeNoInterval(expected.error, 'topics'));
    const first = report.estimates[0];
    expect(first?.corrected.mean).toBeCloseTo(expected.value.corrected.mean, 12);
    expect(first?.corrected.low).toBeCloseTo(expected.value.corrected.low, 12);
    expect(first?.judge_only).toBeCloseTo(expected.value.judgeOnly, 12);
    expect(first?.human_only.mean).toBeCloseTo(expected.value.humanOnly.mean, 12);
  });

  it('says why there is no interval with fewer labelled topics than --min-labelled', async () => {
    const outcome = await runBuiltCli([
      'agreement',
      '--human',
      files.human,
      '--judge',
      files.judge,
      '--run',
      files.runs[0] ?? '',
      '--min-labelled',
      '13',
      '--json',
    ]);

    const report = JSON.parse(outcome.stdout) as { estimates: { reason?: string; corrected?: unknown }[] };
    expect(report.estimates[0]).toMatchObject({ reason: '12 labelled of 30 topics: fewer than the 13 an interval needs' });
    expect(report.estimates[0]?.corrected).toBeUndefined();
  });

  it('prints the estimates after the agreement, run by run and pair by pair', async () => {
    const outcome = await runBuiltCli([
      'agreement',
      '--human',
      files.human,
      '--judge',
      files.judge,
      ...files.runs.flatMap((run) => ['--run', run]),
    ]);

    expect(outcome.stdout).toMatch(
      /corrected by the human labels of the labelled topics \(prediction-powered, PPI\+\+; intervals for the mean over the judge-scored topics\):\nrun +measure +topics +labelled +judge's labels +human labels +corrected +weight\n/,
    );
    expect(outcome.stdout).toMatch(
      /\nsystem0 - system1 +ndcg_cut_10 +30 +12 +-?\d\.\d{4} +-?\d\.\d{4} \[-?\d\.\d{4}, -?\d\.\d{4}\] +-?\d\.\d{4} \[-?\d\.\d{4}, -?\d\.\d{4}\] +\d\.\d{2}\n/,
    );
  });
});
