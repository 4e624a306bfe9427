import { describe, expect, it } from 'vitest';
import {
  addCase,
  correctedMean,
  emptyPairedSums,
  mergePairedSums,
  type PairedSums,
} from '../../../shared/statistics/prediction-powered-mean.js';
import { studentTQuantile } from '../../../shared/statistics/student-t-quantile.js';
import { fixtureJson } from '../../support/fixture-json.js';
import { describeNoInterval } from '../../../shared/statistics/corrected-estimate.js';

/**
 * The corrected mean and its interval against values computed independently
 * from the published formulas with NumPy and SciPy on fixed arrays
 * (test/fixtures/corrected/reference.py, which these tests never run).
 */
interface ReferenceValues {
  readonly judge_only: number;
  readonly human_only: { mean: number; low: number; high: number };
  readonly corrected: { mean: number; low: number; high: number; weight: number };
  readonly bias: number;
  readonly correlation: number | null;
  readonly p_value: number;
  readonly sample: { labelled_judge_mean: number; unlabelled_judge_mean: number; p_value: number } | null;
}

interface ReferenceCase {
  readonly human: readonly number[];
  readonly judge: readonly number[];
  readonly unlabelled: readonly number[];
  readonly level: number;
  /** The mean over the N cases themselves. */
  readonly expected: ReferenceValues;
  /** The mean over the queries the N cases are a sample of. */
  readonly superpopulation: ReferenceValues;
}

const reference = fixtureJson('corrected/expected.json') as Record<string, unknown>;
const cases = Object.entries(reference).filter(([name]) => name !== 't quantiles') as [string, ReferenceCase][];
const quantiles = reference['t quantiles'] as Record<string, number>;

function sumsOf(reference: ReferenceCase): PairedSums {
  const sums = emptyPairedSums();
  reference.human.forEach((human, index) => {
    addCase(sums, reference.judge[index] ?? Number.NaN, human);
  });
  for (const judge of reference.unlabelled) addCase(sums, judge, undefined);
  return sums;
}

const populations = cases.flatMap(([name, reference]) => [
  [`${name}, finite population`, reference, 'finite', reference.expected] as const,
  [`${name}, superpopulation`, reference, 'superpopulation', reference.superpopulation] as const,
]);

describe('the corrected mean', () => {
  it.each(populations)('%s: as the published formulas give it', (_name, reference, population, expected) => {
    // Act
    const outcome = correctedMean(sumsOf(reference), { level: reference.level, minLabelled: 3, population });

    // Assess
    if (!outcome.ok) throw new Error(describeNoInterval(outcome.error, 'cases'));
    expect(outcome.value.judgeOnly).toBeCloseTo(expected.judge_only, 12);
    for (const side of ['mean', 'low', 'high'] as const) {
      expect(outcome.value.humanOnly[side]).toBeCloseTo(expected.human_only[side], 10);
      expect(outcome.value.corrected[side]).toBeCloseTo(expected.corrected[side], 10);
    }
    expect(outcome.value.corrected.weight).toBeCloseTo(expected.corrected.weight, 12);
    expect(outcome.value.corrected.pValue).toBeCloseTo(expected.p_value, 9);
    if (expected.sample === null) expect(outcome.value.sample).toBeUndefined();
    else {
      expect(outcome.value.sample?.labelledJudgeMean).toBeCloseTo(expected.sample.labelled_judge_mean, 12);
      expect(outcome.value.sample?.unlabelledJudgeMean).toBeCloseTo(expected.sample.unlabelled_judge_mean, 12);
      expect(outcome.value.sample?.pValue).toBeCloseTo(expected.sample.p_value, 9);
    }
    expect(outcome.value.bias).toBeCloseTo(expected.bias, 12);
    if (expected.correlation === null) expect(outcome.value.correlation).toBeNull();
    else expect(outcome.value.correlation).toBeCloseTo(expected.correlation, 12);
  });

  it('clips the weight to [0, 1]: a judge ranking the other way is not extrapolated, the estimate is the human-only one', () => {
    const [, reversed] = cases.find(([name]) => name === 'a judge that ranks the other way') ?? [];
    const outcome = correctedMean(sumsOf(reversed as ReferenceCase), { level: 0.9, minLabelled: 3 });

    expect(outcome.ok && outcome.value.corrected).toMatchObject({
      weight: 0,
      mean: outcome.ok ? outcome.value.humanOnly.mean : Number.NaN,
    });
    expect(outcome.ok && outcome.value.corrected.high - outcome.value.corrected.low).toBeCloseTo(
      outcome.ok ? outcome.value.humanOnly.high - outcome.value.humanOnly.low : Number.NaN,
      12,
    );
  });

  it('is exact when every case is labelled: the interval is the point', () => {
    const [, all] = cases.find(([name]) => name === 'every case labelled') ?? [];
    const outcome = correctedMean(sumsOf(all as ReferenceCase), { level: 0.95, minLabelled: 3 });

    expect(outcome.ok && [outcome.value.corrected.low, outcome.value.corrected.high]).toEqual(
      outcome.ok ? [outcome.value.humanOnly.mean, outcome.value.humanOnly.mean] : [],
    );
  });

  it('is the paired t interval over the superpopulation when every case is labelled, not a point', () => {
    const [, all] = cases.find(([name]) => name === 'every case labelled') ?? [];
    const outcome = correctedMean(sumsOf(all as ReferenceCase), { level: 0.95, minLabelled: 3, population: 'superpopulation' });

    if (!outcome.ok) throw new Error(describeNoInterval(outcome.error, 'cases'));
    expect(outcome.value.corrected.high - outcome.value.corrected.low).toBeGreaterThan(0);
    expect(outcome.value.corrected.low).toBeCloseTo(outcome.value.humanOnly.low, 12);
    expect(outcome.value.corrected.high).toBeCloseTo(outcome.value.humanOnly.high, 12);
  });

  it('says when the labelled cases do not look like a random sample: the judge rates them far above the rest', () => {
    const [, best] = cases.find(([name]) => name === 'labelled cases chosen among the best') ?? [];
    const [, random] = cases.find(([name]) => name === 'a judge that follows the humans, high by 0.2') ?? [];

    const [skewed, fair] = [best, random].map((reference) =>
      correctedMean(sumsOf(reference as ReferenceCase), { level: 0.95, minLabelled: 3 }),
    );

    expect(skewed?.ok && skewed.value.sample?.pValue).toBeLessThan(0.001);
    expect(fair?.ok && fair.value.sample?.pValue).toBeGreaterThan(0.05);
  });

  it('gives the same from sums merged range by range as from one pass', () => {
    const [, reference] = cases[0] as [string, ReferenceCase];
    const first = emptyPairedSums();
    const second = emptyPairedSums();
    reference.human.forEach((human, index) => {
      addCase(index < 4 ? first : second, reference.judge[index] ?? Number.NaN, human);
    });
    for (const judge of reference.unlabelled) addCase(second, judge, undefined);

    const merged = correctedMean(mergePairedSums(first, second), { level: 0.95, minLabelled: 3 });
    const whole = correctedMean(sumsOf(reference), { level: 0.95, minLabelled: 3 });

    // The same up to the order of the additions.
    if (!merged.ok || !whole.ok) throw new Error('expected both to give an interval');
    for (const side of ['mean', 'low', 'high', 'weight'] as const)
      expect(merged.value.corrected[side]).toBeCloseTo(whole.value.corrected[side], 13);
  });

  it('says why there is no interval below the least number of labelled cases', () => {
    const [, reference] = cases[0] as [string, ReferenceCase];

    expect(correctedMean(sumsOf(reference), { level: 0.95, minLabelled: 11 })).toEqual({
      ok: false,
      error: { kind: 'too_few_labelled', labelled: 10, all: 25, needed: 11 },
    });
  });
});

describe("Student's t quantile", () => {
  it.each(Object.entries(quantiles))('level and degrees of freedom %s: as SciPy gives it', (key, expected) => {
    const [level, degreesOfFreedom] = key.split(' ').map(Number);
    expect(studentTQuantile(level ?? 0, degreesOfFreedom ?? 0)).toBeCloseTo(expected, 9);
  });
});
