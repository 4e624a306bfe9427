import { describe, expect, it } from 'vitest';
import { reportInOnePass } from '../../../shared/report/aggregate.js';
import { CorrectionTally } from '../../../shared/report/corrected-estimates.js';
import { renderHtml } from '../../../shared/report-render/html.js';
import { renderMarkdown } from '../../../shared/report-render/markdown.js';
import type { CaseLine } from '../../../shared/schema/report.js';
import type { CaseResult } from '../../../shared/schema/run-records.js';
import { addCase, correctedMean, emptyPairedSums, type Population } from '../../../shared/statistics/prediction-powered-mean.js';
import { manifest, result, type Value } from './factories.js';
import { describeNoInterval } from '../../../shared/statistics/corrected-estimate.js';

/**
 * The ground-truth metrics corrected by a relevance judge, from the lines of
 * cases.jsonl: the judge's value of each metric on every case (written by the
 * judge worker as `retrieval/<source>/<judge>/qrels/<metric>`), the human
 * value on the labelled ones.
 */
const TWIN = 'retrieval/llm_judged/graded_relevance/qrels/ndcg@10';
const HUMAN = 'retrieval/ground_truth/ndcg@10';
const SETTINGS = { level: 0.95, minLabelled: 3 };

function line(caseId: string, engine: string, metrics: CaseLine['metrics']): CaseLine {
  return { case_id: caseId, request_id: caseId, engine, metrics };
}

function referenceOf(judge: readonly number[], human: readonly (number | undefined)[], population: Population = 'finite') {
  const sums = emptyPairedSums();
  judge.forEach((value, index) => {
    addCase(sums, value, human[index]);
  });
  const outcome = correctedMean(sums, { ...SETTINGS, population });
  if (!outcome.ok) throw new Error(describeNoInterval(outcome.error, 'cases'));
  return outcome.value;
}

describe('the correction tally', () => {
  it('estimates each engine from its cases: the judge value on all, the human value on the labelled', () => {
    // Prepare
    const judge = [1, 0.63, 0.9, 0.8, 0.2];
    const human = [0.95, 0.3, 0.8, undefined, undefined];
    const tally = new CorrectionTally();
    judge.forEach((value, index) => {
      tally.add(line(`c${index}`, 'bm25', { [TWIN]: value, ...(human[index] === undefined ? {} : { [HUMAN]: human[index] as number }) }));
    });

    // Act
    const estimate = tally.estimates(SETTINGS)?.bm25?.[HUMAN]?.graded_relevance;

    // Assess
    const reference = referenceOf(judge, human);
    const { pValue: _humanP, ...humanOnly } = reference.humanOnly;
    const { pValue: _correctedP, ...corrected } = reference.corrected;
    expect(estimate).toEqual({
      labelled: 3,
      cases: 5,
      population: 'finite',
      level: 0.95,
      judge_only: reference.judgeOnly,
      human_only: humanOnly,
      corrected,
      bias: reference.bias,
      correlation: reference.correlation,
      sample_check: {
        labelled_judge_mean: reference.sample?.labelledJudgeMean,
        unlabelled_judge_mean: reference.sample?.unlabelledJudgeMean,
        p_value: reference.sample?.pValue,
      },
    });
  });

  it('says why there is no interval with too few labelled cases, and is left out of a run without labels', () => {
    const few = new CorrectionTally();
    few.add(line('c1', 'bm25', { [TWIN]: 0.5, [HUMAN]: 0.4 }));
    const unlabelled = new CorrectionTally();
    unlabelled.add(line('c1', 'bm25', { [TWIN]: 0.5 }));

    expect(few.estimates(SETTINGS)?.bm25?.[HUMAN]?.graded_relevance).toEqual({
      labelled: 1,
      cases: 1,
      population: 'finite',
      reason: '1 labelled of 1 cases: fewer than the 3 an interval needs',
    });
    expect(unlabelled.estimates(SETTINGS)).toBeUndefined();
  });

  it('corrects each pair of engines on their per-case differences, a minus b, over the queries the cases stand for, with the p-value of no difference', () => {
    // Prepare: 4 cases of bm25 and dense; cases c0 to c2 labelled for both
    const bm25 = [0.9, 0.4, 0.7, 0.8];
    const dense = [0.5, 0.8, 0.7, 0.3];
    const human: ([number, number] | undefined)[] = [[1, 0.4], [0.5, 0.9], [0.7, 0.7], undefined];
    const tally = new CorrectionTally();
    bm25.forEach((value, index) => {
      const pair = human[index];
      tally.add(line(`c${index}`, 'bm25', { [TWIN]: value, ...(pair === undefined ? {} : { [HUMAN]: pair[0] }) }));
      tally.add(line(`c${index}`, 'dense', { [TWIN]: dense[index] as number, ...(pair === undefined ? {} : { [HUMAN]: pair[1] }) }));
    });

    // Act
    const differences = tally.differences(SETTINGS);

    // Assess
    const reference = referenceOf(
      bm25.map((value, index) => value - (dense[index] as number)),
      human.map((pair) => (pair === undefined ? undefined : pair[0] - pair[1])),
      'superpopulation',
    );
    const { pValue, ...corrected } = reference.corrected;
    expect(differences).toEqual([
      expect.objectContaining({
        engines: ['bm25', 'dense'],
        metric: HUMAN,
        judge: 'graded_relevance',
        labelled: 3,
        cases: 4,
        population: 'superpopulation',
        corrected,
        judge_only: reference.judgeOnly,
        p_value: pValue,
      }),
    ]);
  });
});

describe('the report of a run with labels and a relevance judge', () => {
  it("says when the labelled cases do not look like a random sample of the run's: the judge rates them far above the rest", () => {
    // Prepare: 30 cases; the 12 labelled are those the judge rates best
    const results: CaseResult[] = Array.from({ length: 30 }, (_, index) => {
      const judged = index < 12 ? 0.8 + (index % 4) * 0.05 : 0.2 + (index % 5) * 0.05;
      const metrics: Record<string, number> = { [TWIN]: judged };
      if (index < 12) metrics[HUMAN] = judged - 0.1 + (index % 3) * 0.02;
      return result(`c${String(index).padStart(2, '0')}`, { bm25: metrics });
    });
    const ids = results.map((case_) => case_.case_id);

    // Act
    const report = reportInOnePass({ manifest: manifest(ids), results, failures: [], caseIds: ids });

    // Assess
    const check = report.corrected?.bm25?.[HUMAN]?.graded_relevance?.sample_check;
    expect(check?.p_value).toBeLessThan(0.001);
    expect(check?.labelled_judge_mean).toBeGreaterThan((check?.unlabelled_judge_mean ?? 1) + 0.5);
    expect(renderMarkdown(report)).toMatch(
      /the labelled cases do not look like a random sample: the judge rates them 0\.\d\d higher than the rest \(p < 0\.0001\), and the interval assumes one\*\*/,
    );
  });

  it('holds the corrected estimates in report.json, report.md and report.html', () => {
    // Prepare: 30 cases of one engine, the judge's NDCG on each, the human one on the first 12
    const results: CaseResult[] = Array.from({ length: 30 }, (_, index) => {
      const judged = ((index * 7) % 10) / 10;
      const metrics: Record<string, number> = { [TWIN]: judged };
      if (index < 12) metrics[HUMAN] = Math.max(0, judged - 0.15 + ((index % 3) - 1) * 0.05);
      return result(`c${String(index).padStart(2, '0')}`, { bm25: metrics });
    });
    const ids = results.map((case_) => case_.case_id);

    // Act
    const report = reportInOnePass({ manifest: manifest(ids), results, failures: [], caseIds: ids });

    // Assess
    expect(report.corrected?.bm25?.[HUMAN]?.graded_relevance).toMatchObject({ labelled: 12, cases: 30, level: 0.95 });
    expect(renderMarkdown(report)).toMatch(
      /## Ground truth corrected by the judges\n\n\| engine \| metric \| judge \|[^\n]*\n[^\n]*\n\| `bm25` \| `ndcg@10` \| `graded_relevance` \| \d\.\d{4} \| \d\.\d{4} \[\d\.\d{4}, \d\.\d{4}\] \(12\) \|/,
    );
    expect(renderHtml(report, [])).toContain('<section id="corrected" aria-labelledby="corrected-heading">');
  });
});

/**
 * An answer judge's verdict rate corrected by the human verdicts of the
 * dataset: the judge's rating (`<scope>/<source>/<judge>/rating`) on every
 * case, the person's (`<scope>/human/<judge>/rating`) on the cases that have
 * one, yes as 1 and no as 0, a graded judge's numbers as they are.
 */
const RATING = 'response/llm_judged/correctness/rating';
const VERDICT = 'response/human/correctness/rating';

describe('the correction tally of an answer judge', () => {
  it("pairs the judge's yes/no ratings with the human verdicts, yes = 1 and no = 0, as correctedMean does on the same sums", () => {
    // Prepare: 6 cases, the first 4 with a person's verdict; the judge says yes once where the person says no
    const ratings = ['yes', 'yes', 'no', 'yes', 'no', 'yes'] as const;
    const verdicts = ['yes', 'no', 'no', 'yes', undefined, undefined] as const;
    const tally = new CorrectionTally();
    ratings.forEach((rating, index) => {
      const verdict = verdicts[index];
      tally.add(
        line(`c${index}`, 'bm25', {
          [RATING]: rating,
          [`${RATING.replace('/rating', '/rationale')}`]: 'because',
          ...(verdict === undefined ? {} : { [VERDICT]: verdict }),
        }),
      );
    });

    // Act
    const estimate = tally.estimates(SETTINGS)?.bm25?.[VERDICT]?.correctness;

    // Assess
    const reference = referenceOf([1, 1, 0, 1, 0, 1], [1, 0, 0, 1, undefined, undefined]);
    const { pValue: _p, ...corrected } = reference.corrected;
    expect(estimate).toMatchObject({ labelled: 4, cases: 6, population: 'finite', judge_only: 4 / 6, corrected, bias: 0.25 });
    expect(reference.judgeOnly).toBe(4 / 6);
    expect(Object.keys(tally.estimates(SETTINGS)?.bm25 ?? {})).toEqual([VERDICT]);
  });

  it("pairs a graded judge's numbers as they are, and a model variant under its own name", () => {
    // Prepare: a custom 1-5 judge, tone, on 5 cases, 4 graded by people too; a variant of it rates every case one point lower
    const score = 'response/llm_judged/tone/rating';
    const variant = 'response/llm_judged/tone@small/rating';
    const human = 'response/human/tone/rating';
    const judged = [4, 5, 2, 3, 1];
    const people = [3, 5, 1, 3, undefined];
    const tally = new CorrectionTally();
    judged.forEach((value, index) => {
      const person = people[index];
      tally.add(line(`c${index}`, 'bm25', { [score]: value, [variant]: value - 1, ...(person === undefined ? {} : { [human]: person }) }));
    });

    // Act
    const byJudge = tally.estimates(SETTINGS)?.bm25?.[human];

    // Assess
    const reference = referenceOf(judged, people);
    expect(byJudge?.tone?.corrected?.mean).toBe(reference.corrected.mean);
    expect(byJudge?.tone?.corrected?.low).toBe(reference.corrected.low);
    expect(byJudge?.tone?.judge_only).toBe(3);
    expect(byJudge?.['tone@small']).toMatchObject({ labelled: 4, cases: 5, judge_only: 2 });
  });

  it("corrects each pair of engines' verdict rates on their per-case differences", () => {
    // Prepare: bm25 and dense on 4 cases, verdicts of both on the first 3
    const bm25 = ['yes', 'no', 'yes', 'yes'] as const;
    const dense = ['no', 'no', 'yes', 'no'] as const;
    const people: ([string, string] | undefined)[] = [['yes', 'no'], ['yes', 'no'], ['no', 'no'], undefined];
    const tally = new CorrectionTally();
    bm25.forEach((rating, index) => {
      const pair = people[index];
      tally.add(line(`c${index}`, 'bm25', { [RATING]: rating, ...(pair === undefined ? {} : { [VERDICT]: pair[0] }) }));
      tally.add(line(`c${index}`, 'dense', { [RATING]: dense[index] as string, ...(pair === undefined ? {} : { [VERDICT]: pair[1] }) }));
    });

    // Act
    const differences = tally.differences(SETTINGS);

    // Assess
    const reference = referenceOf([1, 0, 0, 1], [1, 1, 0, undefined], 'superpopulation');
    expect(differences).toEqual([
      expect.objectContaining({
        engines: ['bm25', 'dense'],
        metric: VERDICT,
        judge: 'correctness',
        labelled: 3,
        cases: 4,
        judge_only: 0.5,
        corrected: expect.objectContaining({ mean: reference.corrected.mean, low: reference.corrected.low }),
      }),
    ]);
  });

  it('estimates no verdict rate for a judge without human verdicts, beside a ground-truth metric that has labels', () => {
    const tally = new CorrectionTally();
    tally.add(line('c1', 'bm25', { [RATING]: 'yes', [TWIN]: 0.5, [HUMAN]: 0.4 }));
    tally.add(line('c2', 'bm25', { [RATING]: 'no', [TWIN]: 0.7 }));

    expect(Object.keys(tally.estimates(SETTINGS)?.bm25 ?? {})).toEqual([HUMAN]);
    const unlabelled = new CorrectionTally();
    unlabelled.add(line('c1', 'bm25', { [RATING]: 'yes' }));
    expect(unlabelled.estimates(SETTINGS)).toBeUndefined();
    expect(unlabelled.differences(SETTINGS)).toEqual([]);
  });
});

describe('the report of a run with an answer judge and human verdicts', () => {
  it('holds the corrected verdict rate in report.json, and report.md and report.html show it as human/<judge>', () => {
    // Prepare: 24 cases of one engine; the judge says yes on 18, people gave verdicts on the first 12
    const results: CaseResult[] = Array.from({ length: 24 }, (_, index) => {
      const metrics: Record<string, Value> = { [RATING]: index % 4 === 3 ? 'no' : 'yes' };
      if (index < 12) metrics[VERDICT] = index % 4 === 3 || index % 6 === 1 ? 'no' : 'yes';
      return result(`c${String(index).padStart(2, '0')}`, { bm25: metrics });
    });
    const ids = results.map((case_) => case_.case_id);

    // Act
    const report = reportInOnePass({ manifest: manifest(ids), results, failures: [], caseIds: ids });

    // Assess
    const estimate = report.corrected?.bm25?.[VERDICT]?.correctness;
    expect(estimate).toMatchObject({ labelled: 12, cases: 24, level: 0.95, judge_only: 0.75 });
    expect(estimate?.corrected?.low).toBeLessThan(estimate?.corrected?.high ?? 0);
    expect(report.engines.bm25?.[`${VERDICT}/percentage`]).toBeCloseTo(8 / 12, 12);
    expect(renderMarkdown(report)).toMatch(
      /\| `bm25` \| `human\/correctness` \| `correctness` \| 0\.7500 \| 0\.\d{4} \[0\.\d{4}, \d\.\d{4}\] \(12\) \| /,
    );
    expect(renderHtml(report, [])).toContain('<td><code>human/correctness</code></td><td><code>correctness</code></td>');
  });
});
