import { describe, expect, it } from 'vitest';
import { comparisonReads } from '../../../shared/compare/baselines.js';
import { headlineMetrics } from '../../../shared/report/key-metrics.js';
import { compareRuns, regressions } from '../../../shared/compare/compare-runs.js';
import { reportEstimate } from '../../../shared/report/corrected-estimates.js';
import { renderComparisonTable } from '../../../shared/compare/comparison-table.js';
import { addCase, emptyPairedSums } from '../../../shared/statistics/prediction-powered-mean.js';
import { seededRandom } from '../../../shared/statistics/seeded-random.js';
import { CORRECTNESS, NDCG, runFiles, type CaseSpec } from './factories.js';

/**
 * A ground-truth metric compared with the baseline corrected by the
 * relevance judge that graded both runs: the judge's per-case difference on
 * every case, the human one on the labelled cases.
 */
const TWIN = 'retrieval/llm_judged/graded_relevance/qrels/ndcg@10';

/**
 * Two runs of `size` cases of engine "search", the first `labelled` of them
 * with the human NDCG in both. B moves each case's human value by
 * `drop` plus noise; the judge sees the same moves, 0.2 higher and with a
 * little noise of its own.
 */
function runs(size: number, labelled: number, drop: number, seed = 7) {
  const random = seededRandom(seed);
  const uniform = (): number => random.nextUint32() / 2 ** 32;
  const before: CaseSpec[] = [];
  const after: CaseSpec[] = [];
  const differences: { judge: number; human: number | undefined }[] = [];
  for (let index = 0; index < size; index++) {
    const requestId = `q${String(index).padStart(3, '0')}`;
    const human = 0.3 + 0.4 * uniform();
    const moved = human + drop + (uniform() - 0.5) * 0.3;
    const judgeBefore = human + 0.2 + (uniform() - 0.5) * 0.02;
    const judgeAfter = moved + 0.2 + (uniform() - 0.5) * 0.02;
    const isLabelled = index < labelled;
    before.push({ requestId, engines: { search: { [TWIN]: judgeBefore, ...(isLabelled ? { [NDCG]: human } : {}) } } });
    after.push({ requestId, engines: { search: { [TWIN]: judgeAfter, ...(isLabelled ? { [NDCG]: moved } : {}) } } });
    differences.push({ judge: judgeAfter - judgeBefore, human: isLabelled ? moved - human : undefined });
  }
  return { a: runFiles('r-a', before), b: runFiles('r-b', after), differences };
}

describe('a ground-truth metric against the baseline, corrected by the judge', () => {
  it('is the corrected mean of the per-case differences b − a, over the queries the cases stand for, at level 1 − alpha', () => {
    // Prepare
    const { a, b, differences } = runs(120, 12, -0.05);
    const sums = emptyPairedSums();
    for (const difference of differences) addCase(sums, difference.judge, difference.human);

    // Act
    const compared = compareRuns(a, b, { metrics: [NDCG], alpha: 0.1 }).engines.search?.[NDCG];

    // Assess
    expect(compared?.n).toBe(12);
    expect(compared?.corrected?.graded_relevance).toEqual(reportEstimate(sums, { level: 0.9, minLabelled: 8 }, 'superpopulation'));
    expect(compared?.corrected?.graded_relevance).toMatchObject({ labelled: 12, cases: 120, population: 'superpopulation' });
  });

  it('finds a drop the labelled cases alone cannot: 200 cases, 10 labelled, a judge that sees the moves', () => {
    // Prepare: a true drop of 0.05 per case, noise of ±0.15 around it
    const { a, b } = runs(200, 10, -0.05);

    // Act
    const comparison = compareRuns(a, b, { metrics: [NDCG] });
    const compared = comparison.engines.search?.[NDCG];

    // Assess: the paired test on the 10 labelled cases does not find it; the corrected interval does, and decides
    expect(compared?.p_value).toBeGreaterThan(0.05);
    const corrected = compared?.corrected?.graded_relevance;
    expect(corrected?.corrected?.high).toBeLessThan(0);
    expect(corrected?.corrected?.low).toBeLessThan(-0.03);
    expect(corrected?.p_value).toBeLessThan(0.05);
    expect(compared?.significant).toBe(true);
    expect(compared?.corrected_decision).toEqual({
      judge: 'graded_relevance',
      delta: corrected?.corrected?.mean,
      p_value: corrected?.p_value,
    });
    // One test: its own family, the adjusted p-value the judge's.
    expect(compared?.adjusted_p_value).toBe(corrected?.p_value);
    expect(regressions(comparison)).toEqual([
      {
        engine: 'search',
        metric: NDCG,
        delta: corrected?.corrected?.mean,
        p_value: corrected?.p_value,
        adjusted_p_value: corrected?.p_value,
        judge: 'graded_relevance',
      },
    ]);
  });

  it('does not call an unchanged engine a regression however many cases the judge sees', () => {
    const { a, b } = runs(200, 10, 0, 11);

    const comparison = compareRuns(a, b, { metrics: [NDCG] });

    expect(comparison.engines.search?.[NDCG]?.corrected?.graded_relevance?.corrected).toBeDefined();
    expect(regressions(comparison)).toEqual([]);
  });

  it('leaves the decision to the paired test, and says why, with fewer labelled cases than the minimum', () => {
    const { a, b } = runs(60, 5, -0.05);

    const compared = compareRuns(a, b, { metrics: [NDCG] }).engines.search?.[NDCG];

    expect(compared?.corrected?.graded_relevance).toEqual({
      labelled: 5,
      cases: 60,
      population: 'superpopulation',
      reason: '5 labelled of 60 cases: fewer than the 8 an interval needs',
    });
    expect(compared?.corrected_decision).toBeUndefined();
    expect(compared?.significant).toBe(compared !== undefined && compared.p_value < 0.05);
  });

  it('with every case labelled, is the paired t interval of the human differences', () => {
    const { a, b, differences } = runs(20, 20, -0.05);
    const human = differences.map((difference) => difference.human as number);
    const mean = human.reduce((sum, value) => sum + value, 0) / human.length;

    const corrected = compareRuns(a, b, { metrics: [NDCG] }).engines.search?.[NDCG]?.corrected?.graded_relevance;

    expect(corrected?.corrected?.mean).toBeCloseTo(mean, 12);
    expect(corrected?.corrected?.low).toBeCloseTo(corrected?.human_only?.low ?? Number.NaN, 12);
    expect(corrected?.corrected?.high).toBeCloseTo(corrected?.human_only?.high ?? Number.NaN, 12);
  });

  it('shows a row per judge under the metric in the terminal table', () => {
    const { a, b } = runs(200, 10, -0.05);

    const table = renderComparisonTable(compareRuns(a, b, { metrics: [NDCG] }));

    // The judge decides: its row holds the adjusted p-value, beside its own.
    expect(table).toMatch(
      /\n {2}corrected by graded_relevance +-0\.0\d{3} \[-0\.\d{4}, -0\.\d{4}\] +(<0\.0001|0\.0\d{3}) +(<0\.0001|0\.0\d{3}) +10\/200\s/,
    );
  });
});

/**
 * An answer judge's verdict rate against the baseline: the compared metric is
 * the human verdict `response/human/correctness/rating`, corrected by the
 * judge's rating in both runs, yes = 1 and no = 0.
 */
const VERDICT = 'response/human/correctness/rating';

/**
 * Two runs of `size` cases of engine "search"; in A every answer is right, in
 * B the answers of every case divisible by `wrongEvery` turned wrong. The
 * judge sees it but also says no on every 7th case of both runs; people
 * gave verdicts on the first `labelled` cases of both.
 */
function verdictRuns(size: number, labelled: number, wrongEvery: number) {
  const before: CaseSpec[] = [];
  const after: CaseSpec[] = [];
  const differences: { judge: number; human: number | undefined }[] = [];
  for (let index = 0; index < size; index++) {
    const requestId = `q${String(index).padStart(3, '0')}`;
    const wrong = index % wrongEvery === 0;
    const judgeBefore = index % 7 === 3 ? 'no' : 'yes';
    const judgeAfter = wrong || index % 7 === 3 ? 'no' : 'yes';
    const humanAfter = wrong ? 'no' : 'yes';
    const isLabelled = index < labelled;
    before.push({ requestId, engines: { search: { [CORRECTNESS]: judgeBefore, ...(isLabelled ? { [VERDICT]: 'yes' } : {}) } } });
    after.push({ requestId, engines: { search: { [CORRECTNESS]: judgeAfter, ...(isLabelled ? { [VERDICT]: humanAfter } : {}) } } });
    const asNumber = (verdict: string): number => (verdict === 'yes' ? 1 : 0);
    differences.push({ judge: asNumber(judgeAfter) - asNumber(judgeBefore), human: isLabelled ? asNumber(humanAfter) - 1 : undefined });
  }
  return { a: runFiles('r-a', before), b: runFiles('r-b', after), differences };
}

describe('a verdict rate against the baseline, corrected by the answer judge', () => {
  it("compares the human verdict, a headline metric, corrected by the judge's rating: the estimate of the same sums", () => {
    // Prepare: a drop of a third in the right answers; 12 of 90 cases with verdicts in both runs
    const { a, b, differences } = verdictRuns(90, 12, 3);
    const sums = emptyPairedSums();
    for (const difference of differences) addCase(sums, difference.judge, difference.human);

    // Act
    const comparison = compareRuns(a, b, { metrics: headlineMetrics(b.report) });
    const compared = comparison.engines.search?.[VERDICT];

    // Assess
    expect(headlineMetrics(b.report)).toEqual([VERDICT, CORRECTNESS]);
    expect(compared?.n).toBe(12);
    expect(compared?.corrected?.correctness).toEqual(reportEstimate(sums, { level: 0.95, minLabelled: 8 }, 'superpopulation'));
    expect(compared?.corrected?.correctness).toMatchObject({ labelled: 12, cases: 90, population: 'superpopulation' });
    expect(compared?.corrected?.correctness?.corrected?.high).toBeLessThan(0);
    expect(compared?.significant).toBe(true);
    expect(regressions(comparison)).toContainEqual({
      engine: 'search',
      metric: VERDICT,
      delta: compared?.corrected?.correctness?.corrected?.mean,
      p_value: compared?.corrected?.correctness?.p_value,
      adjusted_p_value: compared?.adjusted_p_value,
      judge: 'correctness',
    });
    // The judge's own rating is compared as any metric, not corrected
    expect(comparison.engines.search?.[CORRECTNESS]?.corrected).toBeUndefined();
  });

  it("reads the judge's rating of the verdicts back from the baseline: yes/no ratings by their percentage, graded ones by their average", () => {
    // Prepare: a yes/no judge and a graded one, each with human verdicts, and a judge without any
    const score = 'response/llm_judged/correctness_score/rating';
    const graded = 'response/human/correctness_score/rating';
    const safety = 'response/llm_judged/safety/rating';
    const { b } = verdictRuns(10, 10, 3);
    const run = runFiles('r-c', [
      {
        requestId: 'q1',
        engines: {
          search: { [CORRECTNESS]: 'yes', [VERDICT]: 'no', [score]: 0.8, [graded]: 0.6, [safety]: 'yes', [TWIN]: 0.5, [NDCG]: 0.4 },
        },
      },
    ]);

    // Act
    const reads = comparisonReads(run.report);

    // Assess
    expect(new Set(reads)).toEqual(new Set([CORRECTNESS, VERDICT, score, graded, safety, NDCG, TWIN]));
    expect(reads).toHaveLength(7);
    expect(comparisonReads(b.report)).toEqual([VERDICT, CORRECTNESS]);
  });

  it('leaves a verdict rate with too few verdicts in both runs to the paired test, and says why', () => {
    const { a, b } = verdictRuns(60, 5, 3);

    const compared = compareRuns(a, b, { metrics: [VERDICT] }).engines.search?.[VERDICT];

    expect(compared?.corrected?.correctness).toEqual({
      labelled: 5,
      cases: 60,
      population: 'superpopulation',
      reason: '5 labelled of 60 cases: fewer than the 8 an interval needs',
    });
    expect(compared?.corrected_decision).toBeUndefined();
  });
});
