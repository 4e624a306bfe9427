import { describe, expect, it } from 'vitest';
import {
  adjustPValues,
  benjaminiHochbergAdjusted,
  holmAdjusted,
  P_VALUE_ADJUSTMENTS,
} from '../../../shared/statistics/p-value-adjustment.js';

/**
 * The 15 p-values of Benjamini and Hochberg's worked example (JRSS B 57,
 * 1995, section 4: the comparisons of a trial of thrombolytic treatment
 * after myocardial infarction, Neuhaus et al. 1992), in the paper's order.
 */
const BENJAMINI_HOCHBERG_EXAMPLE = [
  0.0001, 0.0004, 0.0019, 0.0095, 0.0201, 0.0278, 0.0298, 0.0344, 0.0459, 0.324, 0.4262, 0.5719, 0.6528, 0.759, 1,
];

describe('holmAdjusted', () => {
  it("rejects H1 and H4 of the Wikipedia article's example (p 0.01, 0.03, 0.04, 0.005 at alpha 0.05), as Holm's steps do", () => {
    // Arrange: the example of the "Holm–Bonferroni method" article of the English Wikipedia.
    const pValues = [0.01, 0.03, 0.04, 0.005];

    // Act
    const adjusted = holmAdjusted(pValues);

    // Assess. Sorted: 0.005 × 4 = 0.02; 0.01 × 3 = 0.03; 0.03 × 2 = 0.06; 0.04 × 1 = 0.04, raised to the 0.06 before it.
    expect(adjusted[0]).toBeCloseTo(0.03, 15);
    expect(adjusted[1]).toBeCloseTo(0.06, 15);
    expect(adjusted[2]).toBeCloseTo(0.06, 15);
    expect(adjusted[3]).toBeCloseTo(0.02, 15);
    expect(adjusted.map((p) => p < 0.05)).toEqual([true, false, false, true]);
  });

  it("rejects 3 of the 15 p-values of Benjamini and Hochberg's example at 0.05, one fewer than their procedure", () => {
    // Act
    const adjusted = holmAdjusted(BENJAMINI_HOCHBERG_EXAMPLE);

    // Assess: 15 × 0.0001 = 0.0015; 14 × 0.0004 = 0.0056; 13 × 0.0019 = 0.0247; 12 × 0.0095 = 0.114;
    // 11 × 0.0201 = 0.2211; 10 × 0.0278 = 0.278, which the next three (0.2682, 0.2752) do not pass;
    // 7 × 0.0459 = 0.3213; 6 × 0.324 = 1.944, capped at 1, and 1 from there on.
    const expected = [0.0015, 0.0056, 0.0247, 0.114, 0.2211, 0.278, 0.278, 0.278, 0.3213, 1, 1, 1, 1, 1, 1];
    for (const [index, value] of expected.entries()) expect(adjusted[index]).toBeCloseTo(value, 12);
    expect(adjusted.filter((p) => p < 0.05)).toHaveLength(3);
  });
});

describe('benjaminiHochbergAdjusted', () => {
  it("rejects the 4 smallest of the 15 p-values of Benjamini and Hochberg's example at q = 0.05, as the paper does", () => {
    // Act
    const adjusted = benjaminiHochbergAdjusted(BENJAMINI_HOCHBERG_EXAMPLE);

    // Assess: m · p_(j) / j, then the running minimum from the largest down:
    // 15 × 0.0001 / 1 = 0.0015; 15 × 0.0004 / 2 = 0.003; 15 × 0.0019 / 3 = 0.0095; 15 × 0.0095 / 4 = 0.035625;
    // 15 × 0.0201 / 5 = 0.0603; 15 × 0.0278 / 6 = 0.0695, lowered to 15 × 0.0298 / 7 = 0.063857; 15 × 0.0344 / 8 = 0.0645;
    // 15 × 0.0459 / 9 = 0.0765; 15 × 0.324 / 10 = 0.486; ... 15 × 1 / 15 = 1.
    // The same as SciPy 1.17.1's scipy.stats.false_discovery_control(p, method='bh').
    const expected = [
      0.0015, 0.003, 0.0095, 0.035625, 0.0603, 0.06385714285714286, 0.06385714285714286, 0.0645, 0.0765, 0.486, 0.5811818181818181,
      0.7148749999999999, 0.7532307692307693, 0.8132142857142857, 1,
    ];
    for (const [index, value] of expected.entries()) expect(adjusted[index]).toBeCloseTo(value, 12);
    expect(adjusted.filter((p) => p < 0.05)).toHaveLength(4);
  });

  it("gives the Wikipedia example's p-values 0.02, 0.04, 0.04, 0.02", () => {
    // 4 × 0.005 / 1 = 0.02; 4 × 0.01 / 2 = 0.02; 4 × 0.03 / 3 = 0.04; 4 × 0.04 / 4 = 0.04.
    const adjusted = benjaminiHochbergAdjusted([0.01, 0.03, 0.04, 0.005]);

    expect(adjusted[0]).toBeCloseTo(0.02, 15);
    expect(adjusted[1]).toBeCloseTo(0.04, 15);
    expect(adjusted[2]).toBeCloseTo(0.04, 15);
    expect(adjusted[3]).toBeCloseTo(0.02, 15);
  });
});

describe('adjustPValues', () => {
  it.each(P_VALUE_ADJUSTMENTS)(
    '%s: never lowers a p-value, keeps the order of the tests, and the same p-values give the same adjusted ones',
    (method) => {
      // Arrange: ties, a 0 and a 1, out of order.
      const pValues = [0.2, 0.01, 0.2, 0, 1, 0.03];

      // Act
      const adjusted = adjustPValues(pValues, method);

      // Assess
      expect(adjusted).toHaveLength(pValues.length);
      for (const [index, value] of adjusted.entries()) {
        expect(value).toBeGreaterThanOrEqual(pValues[index] as number);
        expect(value).toBeLessThanOrEqual(1);
      }
      expect(adjusted[0]).toBe(adjusted[2]);
      // A smaller p-value never gets a larger adjusted one.
      expect(adjusted[3]).toBeLessThanOrEqual(adjusted[1] as number);
      expect(adjusted[1]).toBeLessThanOrEqual(adjusted[5] as number);
      expect(adjusted[5]).toBeLessThanOrEqual(adjusted[0] as number);
    },
  );

  it('none gives the p-values back; one test is its own family whatever the method', () => {
    expect(adjustPValues([0.3, 0.01], 'none')).toEqual([0.3, 0.01]);
    for (const method of P_VALUE_ADJUSTMENTS) {
      expect(adjustPValues([0.04], method)).toEqual([0.04]);
      expect(adjustPValues([], method)).toEqual([]);
    }
  });

  it.each([Number.NaN, -0.1, 1.5])('throws on a p-value of %d: a bug of the caller', (bad) => {
    for (const method of P_VALUE_ADJUSTMENTS) expect(() => adjustPValues([0.1, bad], method)).toThrow(RangeError);
  });
});
