import { describe, expect, it } from 'vitest';
import { pairedRandomizationTest } from '../../../shared/statistics/paired-randomization-test.js';
import { pairedTTest } from '../../../shared/statistics/paired-t-test.js';

const SEED = 7;

/** Deltas that look like a real comparison: a small gain with noise, deterministic. */
const noisyGain = (count: number): number[] => Array.from({ length: count }, (_, index) => 0.05 + 0.2 * Math.sin(index));

describe('pairedRandomizationTest, exact enumeration (2^n <= permutations)', () => {
  it.each<[string, number[], number]>([
    // 2^4 = 16 patterns; |Σ s_i| >= 4 only for ++++ and ----: 2/16.
    ['four equal gains', [1, 1, 1, 1], 2 / 16],
    // ++ = 3, +- = 1, -+ = -1, -- = -3; |sum| >= 3 for ++ and --: 2/4.
    ['a gain of 2 and a gain of 1', [2, 1], 2 / 4],
    // observed 3 + (-1) + 1 = 3; with the 3 positive: (-1, 1) -> 3, (1, 1) -> 5, (-1, -1) -> 1, (1, -1) -> 3,
    // so 3 of 4 reach |3|, and their mirrors: 6/8.
    ['a gain, a loss and a gain', [3, -1, 1], 6 / 8],
    // One delta: + and - both reach |d|: 2/2.
    ['one delta', [0.4], 1],
    // The two 1s must share a sign (++ or --) to reach |2|; the zeros' signs are free (2^2 ways): (2 · 4) / 16.
    ['two gains and two zeros', [1, 0, 1, 0], 8 / 16],
  ])('gives count / 2^n for %s', (_described, deltas, expected) => {
    expect(pairedRandomizationTest(deltas, { seed: SEED })).toBe(expected);
  });

  it('counts patterns that tie with the observed one in exact arithmetic, whatever the rounding', () => {
    // Prepare: as integers [1, 2, -3, 4], observed sum 4. With the last sign +, s1 + 2 s2 - 3 s3 + 4 is
    // 4 (+++), 10 (++-), 0 (+-+), 6 (+--), 2 (-++), 8 (-+-), -2 (--+), 4 (---): 5 reach 4, and 5 mirrors.
    // In doubles 0.1 + 0.2 - 0.3 + 0.4 and -0.1 - 0.2 + 0.3 + 0.4 are not equal to 0.4 exactly;
    // without the tolerance two of the ties would be lost (8/16).
    const deltas = [0.1, 0.2, -0.3, 0.4];

    // Act
    const pValue = pairedRandomizationTest(deltas, { seed: SEED });

    // Assess
    expect(pValue).toBe(10 / 16);
    expect(pairedRandomizationTest([1, 2, -3, 4], { seed: SEED })).toBe(10 / 16);
  });

  it.each<[string, number[]]>([
    ['no delta', []],
    ['all deltas 0', [0, 0, 0]],
    ['all deltas 0 with a negative zero', [0, -0]],
  ])('is 1 for %s', (_described, deltas) => {
    expect(pairedRandomizationTest(deltas, { seed: SEED })).toBe(1);
  });

  it('never goes below 2 / 2^n: five equal gains cannot reach 0.05', () => {
    // 2/32 = 0.0625: with 5 cases no difference is significant at 0.05.
    expect(pairedRandomizationTest([1, 1, 1, 1, 1], { seed: SEED })).toBe(0.0625);
  });

  it('does not overflow on deltas near the largest double', () => {
    expect(pairedRandomizationTest([1.7e308, 1.7e308, 1.7e308, 1.7e308], { seed: SEED })).toBe(2 / 16);
  });
});

describe('pairedRandomizationTest, sampled sign flips (2^n > permutations)', () => {
  it('gives (1 + k) / (1 + permutations) for a whole k, and never 0', () => {
    // Prepare: 14 gains, 2^14 = 16,384 > 10,000 patterns. Only ++...+ and --...- reach the observed
    // sum, so k is almost surely 0: p = 1/10,001.
    const deltas = Array.from({ length: 14 }, (_, index) => index + 1);

    // Act
    const pValue = pairedRandomizationTest(deltas, { seed: SEED });

    // Assess
    const extremeDraws = pValue * 10_001 - 1;
    expect(extremeDraws).toBeCloseTo(Math.round(extremeDraws), 9);
    expect(pValue).toBeGreaterThanOrEqual(1 / 10_001);
    expect(pValue).toBeLessThan(0.001);
  });

  it('approaches the exact p-value', () => {
    // Prepare: the same 14 deltas enumerated (permutations >= 2^14) and sampled 10,000 times. The
    // sampled p has a standard error of at most √(0.25 / 10,000) = 0.005.
    const deltas = noisyGain(14);

    // Act
    const exact = pairedRandomizationTest(deltas, { permutations: 2 ** 14, seed: SEED });
    const sampled = pairedRandomizationTest(deltas, { permutations: 10_000, seed: SEED });

    // Assess
    expect(Math.abs(sampled - exact)).toBeLessThan(0.02);
  });

  it('gives the same p-value for the same seed and usually another for another seed', () => {
    const deltas = noisyGain(40);

    const first = pairedRandomizationTest(deltas, { seed: 1 });
    const again = pairedRandomizationTest(deltas, { seed: 1 });
    const otherSeed = pairedRandomizationTest(deltas, { seed: 2 });

    expect(again).toBe(first);
    expect(otherSeed).not.toBe(first);
    expect(Math.abs(otherSeed - first)).toBeLessThan(0.02);
  });

  it('agrees with the t-test on well-behaved deltas (as Smucker et al. found)', () => {
    // 30 deltas: t = 2.2633 with 29 degrees of freedom, p = 0.0313 (scipy.stats.ttest_1samp).
    const deltas = noisyGain(30);

    const randomization = pairedRandomizationTest(deltas, { seed: 42 });

    expect(pairedTTest(deltas).pValue).toBeCloseTo(0.03127414422993093, 12);
    expect(Math.abs(randomization - 0.0313)).toBeLessThan(0.006);
  });
});

describe('pairedRandomizationTest, bad arguments', () => {
  it.each<[string, number[], number, RegExp]>([
    ['a NaN delta', [1, Number.NaN], 100, /Expected deltas to be finite numbers, got NaN at index 1/],
    ['an infinite delta', [Number.POSITIVE_INFINITY], 100, /got Infinity at index 0/],
    ['0 permutations', [1, 2], 0, /Expected permutations to be an integer from 1 and up, got 0/],
    ['a fractional number of permutations', [1, 2], 1.5, /got 1.5/],
  ])('throws on %s', (_described, deltas, permutations, message) => {
    expect(() => pairedRandomizationTest(deltas, { permutations, seed: SEED })).toThrow(message);
  });
});
