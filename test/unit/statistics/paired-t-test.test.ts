import { describe, expect, it } from 'vitest';
import { pairedTTest } from '../../../shared/statistics/paired-t-test.js';
import { studentTTwoSidedPValue } from '../../../shared/statistics/student-t.js';

describe('studentTTwoSidedPValue', () => {
  it.each<[string, number, number, number]>([
    // ν = 1 (Cauchy): 1 - (2/π) atan|t|; at t = 1: 1 - (2/π)(π/4) = 0.5
    ['ν = 1 at t = 1', 1, 1, 0.5],
    ['ν = 1 at t = 3', 3, 1, 1 - (2 / Math.PI) * Math.atan(3)],
    // ν = 2: 1 - |t| / √(2 + t²); at t = 1: 1 - 1/√3 = 0.42265
    ['ν = 2 at t = 1', 1, 2, 1 - 1 / Math.sqrt(3)],
    ['ν = 2 at t = -4', -4, 2, 1 - 4 / Math.sqrt(18)],
    // scipy.stats.t.sf(|t|, ν) * 2
    ['ν = 10 at t = 2', 2, 10, 0.07338803477074037],
    ['ν = 30 at t = 3.5', 3.5, 30, 0.0014768074376442532],
    ['ν = 3 at t = 12', 12, 3, 0.0012450158007893362],
    ['ν = 1000 at t = 0.5', 0.5, 1000, 0.6171850808338747],
  ])('is right for %s', (_described, t, degreesOfFreedom, expected) => {
    expect(studentTTwoSidedPValue(t, degreesOfFreedom)).toBeCloseTo(expected, 12);
  });

  it.each<[number, number]>([
    [0, 1],
    [Number.POSITIVE_INFINITY, 0],
    [Number.NEGATIVE_INFINITY, 0],
    [1e200, 0],
  ])('gives p(%d) = %d', (t, expected) => {
    expect(studentTTwoSidedPValue(t, 5)).toBe(expected);
  });
});

describe('pairedTTest', () => {
  it('works [1, 2, 3, 4, 5] out by hand', () => {
    // mean = 15/5 = 3; s² = (4 + 1 + 0 + 1 + 4)/4 = 2.5, s = 1.5811; standard error = s/√5 = 0.70711
    // t = 3 / 0.70711 = 4.2426 with ν = 4; p = 0.013236 (scipy.stats.ttest_1samp)
    const result = pairedTTest([1, 2, 3, 4, 5]);

    expect(result.t).toBeCloseTo(3 / Math.sqrt(2.5 / 5), 13);
    expect(result.degreesOfFreedom).toBe(4);
    expect(result.pValue).toBeCloseTo(0.01323559956368269, 13);
  });

  it('works mixed gains and losses', () => {
    // mean = 1.0/6 = 0.16667; squared deviations 0.1111 + 0.1344 + 0.0178 + 0.0044 + 0.0544 + 0.0711 = 0.3933,
    // s² = 0.3933/5 = 0.07867; standard error = √(0.07867/6) = 0.11450; t = 0.16667/0.11450 = 1.4556 with ν = 5;
    // p = 0.20528 (scipy.stats.ttest_1samp)
    const result = pairedTTest([0.5, -0.2, 0.3, 0.1, 0.4, -0.1]);

    expect(result.t).toBeCloseTo(1.4555562743489547, 12);
    expect(result.pValue).toBeCloseTo(0.20528150522872635, 12);
  });

  it('does not change when every delta is scaled, even near the largest double', () => {
    const small = pairedTTest([1, 2, 3, 4, 5]);
    const huge = pairedTTest([1, 2, 3, 4, 5].map((delta) => delta * 3e307));

    expect(huge.t).toBeCloseTo(small.t, 12);
    expect(huge.pValue).toBeCloseTo(small.pValue, 12);
  });

  it.each<[string, number[], number, number, number]>([
    ['no delta', [], 0, 0, 1],
    ['one delta', [0.3], 0, 0, 1],
    ['every delta 0', [0, 0, 0], 0, 2, 1],
    ['the same gain on every case', [0.2, 0.2, 0.2], Number.POSITIVE_INFINITY, 2, 0],
    ['the same loss on every case', [-0.2, -0.2], Number.NEGATIVE_INFINITY, 1, 0],
  ])('gives t, ν and p without NaN for %s', (_described, deltas, t, degreesOfFreedom, pValue) => {
    expect(pairedTTest(deltas)).toEqual({ t, degreesOfFreedom, pValue });
  });

  it('throws on a delta that is not finite', () => {
    expect(() => pairedTTest([1, Number.NaN])).toThrow(/Expected deltas to be finite numbers, got NaN at index 1/);
  });
});
