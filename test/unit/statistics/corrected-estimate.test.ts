import { describe, expect, it } from 'vitest';
import { correctedEstimateSchema } from '../../../shared/schema/report.js';
import { correctedEstimate, describeNoInterval, type CorrectedEstimateSettings } from '../../../shared/statistics/corrected-estimate.js';
import {
  addCase,
  correctedMean,
  emptyPairedSums,
  type NoInterval,
  type PairedSums,
} from '../../../shared/statistics/prediction-powered-mean.js';

/** Sums of the judge's values, each with the human value at the same index when there is one. */
function sumsOf(judge: readonly number[], human: readonly (number | undefined)[]): PairedSums {
  const sums = emptyPairedSums();
  judge.forEach((value, index) => {
    addCase(sums, value, human[index]);
  });
  return sums;
}

const REPORT: CorrectedEstimateSettings = {
  level: 0.95,
  minLabelled: 3,
  population: 'finite',
  unit: 'cases',
  judgeMeanWithoutInterval: false,
};
const AGREEMENT: CorrectedEstimateSettings = { ...REPORT, unit: 'topics', judgeMeanWithoutInterval: true };

// Six values, four labelled: enough for an interval at minLabelled 3.
const JUDGE = [0.9, 0.4, 0.7, 0.8, 0.6, 0.5];
const HUMAN = [0.8, 0.2, 0.7, 0.5, undefined, undefined];

describe('the corrected estimate', () => {
  it('holds the corrected mean, its interval and the judge weight, in the one shape the schema describes', () => {
    // Prepare
    const sums = sumsOf(JUDGE, HUMAN);
    const expected = correctedMean(sums, REPORT);
    if (!expected.ok) throw new Error(describeNoInterval(expected.error, 'cases'));

    // Act
    const estimate = correctedEstimate(sums, REPORT);

    // Assess
    expect(correctedEstimateSchema.parse(estimate)).toStrictEqual(estimate);
    expect(estimate).toStrictEqual({
      labelled: 4,
      cases: 6,
      population: 'finite',
      level: 0.95,
      judge_only: expected.value.judgeOnly,
      human_only: { mean: expected.value.humanOnly.mean, low: expected.value.humanOnly.low, high: expected.value.humanOnly.high },
      corrected: {
        mean: expected.value.corrected.mean,
        low: expected.value.corrected.low,
        high: expected.value.corrected.high,
        weight: expected.value.corrected.weight,
      },
      bias: expected.value.bias,
      correlation: expected.value.correlation,
      sample_check: {
        labelled_judge_mean: expected.value.sample?.labelledJudgeMean,
        unlabelled_judge_mean: expected.value.sample?.unlabelledJudgeMean,
        p_value: expected.value.sample?.pValue,
      },
    });
  });

  it('names its unit only when it is not cases, the unit report.json has always counted', () => {
    // Prepare
    const sums = sumsOf(JUDGE, HUMAN);

    // Act
    const [inCases, inTopics] = [correctedEstimate(sums, REPORT), correctedEstimate(sums, AGREEMENT)];

    // Assess: the same numbers either way
    expect(inCases.unit).toBeUndefined();
    expect(inTopics).toStrictEqual({ unit: 'topics', ...inCases });
  });

  it('gives a difference the p-value of no difference, and a mean none', () => {
    // Prepare
    const sums = sumsOf(JUDGE, HUMAN);

    // Act
    const [mean, difference] = [correctedEstimate(sums, REPORT), correctedEstimate(sums, { ...REPORT, population: 'superpopulation' })];

    // Assess
    expect(mean.p_value).toBeUndefined();
    expect(difference).toMatchObject({ population: 'superpopulation', p_value: expect.any(Number) });
  });

  it("says why there is no interval in its own unit, with the judge's mean beside it where asked", () => {
    // Prepare: two labelled of four, below minLabelled 3; the judge's mean (0.9 + 0.4 + 0.7 + 0.8) / 4 = 0.7
    const sums = sumsOf([0.9, 0.4, 0.7, 0.8], [0.8, 0.2]);

    // Act
    const [inCases, inTopics] = [correctedEstimate(sums, REPORT), correctedEstimate(sums, AGREEMENT)];

    // Assess
    expect(inCases).toStrictEqual({
      labelled: 2,
      cases: 4,
      population: 'finite',
      reason: '2 labelled of 4 cases: fewer than the 3 an interval needs',
    });
    expect(inTopics).toStrictEqual({
      unit: 'topics',
      labelled: 2,
      cases: 4,
      population: 'finite',
      judge_only: expect.closeTo(0.7, 12),
      reason: '2 labelled of 4 topics: fewer than the 3 an interval needs',
    });
    expect(correctedEstimateSchema.parse(inTopics)).toStrictEqual(inTopics);
  });

  it('gives no judge mean when nothing has the judge value', () => {
    // Act
    const estimate = correctedEstimate(emptyPairedSums(), AGREEMENT);

    // Assess
    expect(estimate).toStrictEqual({
      unit: 'topics',
      labelled: 0,
      cases: 0,
      population: 'finite',
      reason: 'no topic is scored under the judge qrels',
    });
  });
});

describe('why there is no interval', () => {
  it.each<[NoInterval, string, string]>([
    [{ kind: 'no_judge_values' }, "no case has the judge's value", 'no topic is scored under the judge qrels'],
    [
      { kind: 'too_few_labelled', labelled: 5, all: 60, needed: 8 },
      '5 labelled of 60 cases: fewer than the 8 an interval needs',
      '5 labelled of 60 topics: fewer than the 8 an interval needs',
    ],
    [
      { kind: 'no_spread', labelled: 9, all: 12, humanValue: 1 },
      'the 9 labelled cases all have the human value 1: no spread to estimate the other 3 from',
      'the 9 labelled topics all have the human value 1: no spread to estimate the other 3 from',
    ],
  ])('%o reads, in cases and in topics: %s / %s', (reason, inCases, inTopics) => {
    expect([describeNoInterval(reason, 'cases'), describeNoInterval(reason, 'topics')]).toEqual([inCases, inTopics]);
  });

  it('is a value the corrected mean gives when every labelled case has the same human value', () => {
    // Prepare: three labelled cases all 0.5, two more the judge alone scored
    const sums = sumsOf([0.9, 0.4, 0.7, 0.8, 0.6], [0.5, 0.5, 0.5]);

    // Act
    const outcome = correctedMean(sums, { level: 0.95, minLabelled: 3 });

    // Assess
    expect(outcome).toEqual({ ok: false, error: { kind: 'no_spread', labelled: 3, all: 5, humanValue: 0.5 } });
  });
});
