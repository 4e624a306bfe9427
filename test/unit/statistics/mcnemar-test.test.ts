import { describe, expect, it } from 'vitest';
import { mcNemarExactTest } from '../../../shared/statistics/mcnemar-test.js';

describe('mcNemarExactTest', () => {
  it.each<[string, number, number, number]>([
    // Reference values: SciPy 1.17.1, scipy.stats.binomtest(min(b, c), b + c, 0.5).pvalue
    // 14 discordant pairs all one way: 2 · 0.5^14
    ['14 flips, all one way', 0, 14, 0.0001220703125],
    // 2 · (1 + 14) / 2^14
    ['13 flips one way, 1 the other', 1, 13, 0.0018310546875],
    ['3 against 9', 3, 9, 0.14599609375],
    ['7 against none', 7, 0, 0.015625],
    ['2 against none: too few pairs to show anything', 2, 0, 0.5],
    ['one flip', 0, 1, 1],
    ['as many each way', 5, 5, 1],
    ['40 against 60', 40, 60, 0.05688793364098089],
    ['120 against 180, at a count where the chi-square form is usually taken', 120, 180, 0.0006342200069283566],
  ])('gives the exact binomial p-value: %s', (_described, yesToNo, noToYes, expected) => {
    expect(mcNemarExactTest(yesToNo, noToYes)).toBeCloseTo(expected, 12);
    // The test is symmetric in its two counts.
    expect(mcNemarExactTest(noToYes, yesToNo)).toBeCloseTo(expected, 12);
  });

  it('gives 1 when no pair changed', () => {
    expect(mcNemarExactTest(0, 0)).toBe(1);
  });

  it.each([
    [-1, 2],
    [1.5, 2],
    [Number.NaN, 0],
  ])('throws on a count that is not a whole number from 0 up (%s, %s)', (yesToNo, noToYes) => {
    expect(() => mcNemarExactTest(yesToNo, noToYes)).toThrow(RangeError);
  });
});
