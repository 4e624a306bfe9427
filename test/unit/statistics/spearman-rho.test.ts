import { describe, expect, it } from 'vitest';
import { averageRanks, spearmanRho } from '../../../shared/statistics/spearman-rho.js';

describe('averageRanks', () => {
  it.each<[number[], number[]]>([
    [
      [5, 7, 7, 9],
      [1, 2.5, 2.5, 4],
    ],
    [
      [0.3, 0.1, 0.2],
      [3, 1, 2],
    ],
    [
      [4, 4, 4],
      [2, 2, 2],
    ],
    [
      [2, 1, 2, 1, 2],
      [4, 1.5, 4, 1.5, 4],
    ],
  ])('ranks %j as %j', (values, ranks) => {
    expect(averageRanks(values)).toEqual(ranks);
  });
});

describe('spearmanRho', () => {
  it.each<[string, number[], number[], number]>([
    ['the same order', [0.1, 0.5, 0.3], [10, 30, 20], 1],
    ['the reverse order', [0.1, 0.5, 0.3], [30, 10, 20], -1],
    // no ties: d = (1, 1, 1, 1), 1 - 6·4/(4·15)
    ['two swaps of neighbours', [1, 2, 3, 4], [2, 1, 4, 3], 0.6],
    // ranks a = (1, 2.5, 2.5, 4), b = (1, 2, 3.5, 3.5), mean 2.5: deviations (-1.5, 0, 0, 1.5) and
    // (-1.5, -0.5, 1, 1); Σ products = 2.25 + 1.5 = 3.75; Σ squares 4.5 and 4.5: ρ = 3.75/4.5
    ['ties in each list', [1, 2, 2, 3], [1, 2, 3, 3], 3.75 / 4.5],
  ])('gives %s', (_described, x, y, expected) => {
    const rho = spearmanRho(x, y);

    expect(rho.ok && rho.value).toBeCloseTo(expected, 15);
  });

  it('differs from the no-ties shortcut formula when there are ties', () => {
    // The shortcut 1 - 6 Σ d²/(n(n² - 1)) on the ranks above: d = (0, 0.5, -1, 0.5), Σ d² = 1.5, 1 - 9/60 = 0.85.
    const rho = spearmanRho([1, 2, 2, 3], [1, 2, 3, 3]);

    expect(rho.ok && rho.value).not.toBeCloseTo(0.85, 6);
  });

  it.each<[string, number[], number[], RegExp]>([
    ['no pair', [], [], /at least 2/],
    ['one pair', [3], [1], /at least 2/],
    ['a constant first list', [2, 2, 2], [1, 2, 3], /first list is the same/],
    ['a constant second list', [1, 2, 3], [7, 7, 7], /second list is the same/],
  ])('is undefined, with a reason, for %s', (_described, x, y, reason) => {
    const rho = spearmanRho(x, y);

    expect(rho.ok).toBe(false);
    expect(rho.ok ? '' : rho.error).toMatch(reason);
  });
});
