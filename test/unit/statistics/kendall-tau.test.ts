import { describe, expect, it } from 'vitest';
import { kendallTauB } from '../../../shared/statistics/kendall-tau.js';

describe('kendallTauB', () => {
  it.each<[string, number[], number[], number]>([
    ['the same order', [0.1, 0.5, 0.3], [1, 3, 2], 1],
    ['the reverse order', [0.1, 0.5, 0.3], [3, 1, 2], -1],
    // pairs (0,1) D, (0,2) C, (0,3) C, (1,2) C, (1,3) C, (2,3) D: (4 - 2)/6
    ['two swaps of neighbours', [1, 2, 3, 4], [2, 1, 4, 3], 1 / 3],
    // pair (1,2) is tied in x, pair (2,3) in y; the other four are concordant.
    // n0 = 6, n1 = n2 = 1: τ_b = 4/√(5·5)
    ['ties in each list at different places', [1, 2, 2, 3], [1, 2, 3, 3], 0.8],
    // pair (0,1) tied in both, (0,2) and (1,2) concordant: n0 = 3, n1 = n2 = 1, τ_b = 2/√(2·2)
    ['a tie both lists share', [1, 1, 2], [5, 5, 6], 1],
    // x ties (0,1): C = (0,2), (1,2) concordant; y has no tie: τ_b = 2/√((3 - 1)·3)
    ['a tie in one list only', [1, 1, 2], [1, 2, 3], 2 / Math.sqrt(6)],
  ])('gives %s', (_described, x, y, expected) => {
    const tau = kendallTauB(x, y);

    expect(tau.ok && tau.value).toBeCloseTo(expected, 15);
  });

  it('is symmetric in its two lists', () => {
    const x = [0.3, 0.1, 0.1, 0.7, 0.2];
    const y = [2, 2, 1, 5, 3];

    expect(kendallTauB(x, y)).toEqual(kendallTauB(y, x));
  });

  it.each<[string, number[], number[], RegExp]>([
    ['no pair', [], [], /at least 2/],
    ['one pair', [0.4], [0.2], /at least 2/],
    ['a constant first list', [0.5, 0.5, 0.5], [1, 2, 3], /first list is the same/],
    ['a constant second list', [1, 2, 3], [0, 0, 0], /second list is the same/],
  ])('is undefined, with a reason, for %s', (_described, x, y, reason) => {
    const tau = kendallTauB(x, y);

    expect(tau.ok).toBe(false);
    expect(tau.ok ? '' : tau.error).toMatch(reason);
  });

  it('throws on lists of different lengths or a value that is not a number', () => {
    expect(() => kendallTauB([1, 2], [1])).toThrow(/same length/);
    expect(() => kendallTauB([1, Number.NaN], [1, 2])).toThrow(/finite/);
  });
});
