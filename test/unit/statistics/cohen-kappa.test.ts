import { describe, expect, it } from 'vitest';
import { cohenKappa, confusionCounts, type ConfusionCounts } from '../../../shared/statistics/cohen-kappa.js';

describe('cohenKappa', () => {
  it.each<[string, ConfusionCounts, number]>([
    // p_o = (20 + 15)/50 = 0.7; rows (25, 25), columns (30, 20): p_e = (25·30 + 25·20)/50² = 0.5; κ = (0.7 - 0.5)/(1 - 0.5)
    [
      'a 2 × 2 table',
      [
        [20, 5],
        [10, 15],
      ],
      0.4,
    ],
    [
      'perfect agreement',
      [
        [3, 0],
        [0, 7],
      ],
      1,
    ],
    // p_o = 0, p_e = (5·5 + 5·5)/10² = 0.5: κ = -0.5/0.5
    [
      'perfect disagreement on balanced marginals',
      [
        [0, 5],
        [5, 0],
      ],
      -1,
    ],
    // one rater says 1 to everything: rows (0, 4), columns (2, 2); p_o = 0.5 = p_e
    [
      'a constant rater against a varying one',
      [
        [0, 0],
        [2, 2],
      ],
      0,
    ],
    // labels 0,0,1,1,2 against 0,1,1,2,2: rows (2, 2, 1), columns (1, 2, 2), N = 5, two disagreements;
    // Σ_{i≠j} r_i c_j = N² - Σ r_i c_i = 25 - (2 + 4 + 2) = 17: κ = 1 - 5·2/17 = 7/17
    [
      'a 3 × 3 table',
      [
        [1, 1, 0],
        [0, 1, 1],
        [0, 0, 1],
      ],
      7 / 17,
    ],
  ])('gives %s the plain kappa', (_described, counts, expected) => {
    const kappa = cohenKappa(counts);

    expect(kappa.ok && kappa.value).toBeCloseTo(expected, 15);
  });

  it('weighs disagreements by squared distance with quadratic weights', () => {
    // Prepare: the 3 × 3 table above. Σ w C = 1·1 + 1·1 = 2 (both disagreements one step apart);
    // Σ w r c = row 0 (r=2): 1·2·2 + 4·2·2 = 20; row 1 (r=2): 1·2·1 + 1·2·2 = 6; row 2 (r=1): 4·1·1 + 1·1·2 = 6; total 32.
    const counts = [
      [1, 1, 0],
      [0, 1, 1],
      [0, 0, 1],
    ];

    // Act
    const kappa = cohenKappa(counts, 'quadratic');

    // Assess: κ_w = 1 - N Σ w C / Σ w r c = 1 - 5·2/32 = 22/32
    expect(kappa).toEqual({ ok: true, value: 22 / 32 });
  });

  it('measures distance by position in the category list, so an unused category changes weighted kappa only', () => {
    // Prepare: human 0,1,3,3 against judge 0,3,1,3.
    // Over [0, 1, 3] (positions 0, 1, 2): Σ w C = 1 + 1 = 2, Σ w r c = 9 + 3 + 10 = 22, κ_w = 1 - 4·2/22 = 7/11.
    // Over [0, 1, 2, 3] (3 at position 3): Σ w C = 4 + 4 = 8, Σ w r c = 19 + 9 + 26 = 54, κ_w = 1 - 4·8/54 = 11/27.
    const human = [0, 1, 3, 3];
    const judge = [0, 3, 1, 3];

    // Act
    const without = confusionCounts(human, judge, [0, 1, 3]);
    const withUnused = confusionCounts(human, judge, [0, 1, 2, 3]);

    // Assess
    expect(cohenKappa(without, 'quadratic')).toEqual({ ok: true, value: expect.closeTo(7 / 11, 15) });
    expect(cohenKappa(withUnused, 'quadratic')).toEqual({ ok: true, value: expect.closeTo(11 / 27, 15) });
    expect(cohenKappa(withUnused)).toEqual(cohenKappa(without));
  });

  it.each<[string, ConfusionCounts, RegExp]>([
    [
      'no item',
      [
        [0, 0],
        [0, 0],
      ],
      /no item/,
    ],
    ['no category', [], /no item/],
    [
      'both raters in one and the same category',
      [
        [0, 0],
        [0, 9],
      ],
      /same single category/,
    ],
  ])('is undefined, with a reason, for %s', (_described, counts, reason) => {
    for (const weights of ['none', 'quadratic'] as const) {
      const kappa = cohenKappa(counts, weights);
      expect(kappa.ok).toBe(false);
      expect(kappa.ok ? '' : kappa.error).toMatch(reason);
    }
  });

  it('throws on a table that is not square or a count that is not a count', () => {
    expect(() => cohenKappa([[1, 2], [3]])).toThrow(/square/);
    expect(() =>
      cohenKappa([
        [1, 0.5],
        [0, 1],
      ]),
    ).toThrow(/integers/);
    expect(() =>
      cohenKappa([
        [1, -1],
        [0, 1],
      ]),
    ).toThrow(/integers/);
  });
});

describe('confusionCounts', () => {
  it('counts the first list by row and the second by column', () => {
    expect(confusionCounts([0, 0, 2, 1], [0, 2, 2, 1], [0, 1, 2])).toEqual([
      [1, 0, 1],
      [0, 1, 0],
      [0, 0, 1],
    ]);
  });

  it('throws on a label outside the categories or lists of different lengths', () => {
    expect(() => confusionCounts([0, 5], [0, 0], [0, 1])).toThrow(/not one of the categories/);
    expect(() => confusionCounts([0], [0, 1], [0, 1])).toThrow(/same length/);
  });
});
