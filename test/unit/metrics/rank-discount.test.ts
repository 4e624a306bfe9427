import { describe, expect, it } from 'vitest';
import { correctlyRoundedLog2, rankDiscount, rankDiscounts } from '../../../shared/metrics/rank-discount.js';
import { referenceLog2, ulpDistance } from './exact-log2.js';

describe('the exact reference', () => {
  it.each([
    [1, 0],
    [2, 1],
    [1024, 10],
    [3, 1.584962500721156],
    [10, 3.321928094887362],
  ])('gives log2(%i) = %f', (n, expected) => {
    expect(referenceLog2(n)).toBe(expected);
  });
});

describe('rankDiscount', () => {
  it.each([
    // log2(rank + 1) is an integer when rank + 1 is a power of two
    [1, 1],
    [3, 2],
    [7, 3],
    [1023, 10],
    [4095, 12],
  ])('at rank %i is exactly %i', (rank, expected) => {
    expect(rankDiscount(rank)).toBe(expected);
  });

  it.each([2, 4, 5, 6, 99, 1374, 1620, 4096, 6000])('at rank %i is log2(rank + 1) correctly rounded', (rank) => {
    expect(rankDiscount(rank)).toBe(referenceLog2(rank + 1));
  });

  it('is within one unit in the last place of Math.log2', () => {
    for (const rank of [2, 5, 1374, 1620, 6000]) {
      expect(ulpDistance(rankDiscount(rank), Math.log2(rank + 1))).toBeLessThanOrEqual(1);
    }
  });

  it('holds log2(rank + 1) correctly rounded at every rank of its first 4,096, each built from smaller ones or a series', () => {
    // Act
    const table = rankDiscounts(4095);

    // Assess: composite rank + 1 come from their prime factors, so every one is checked, not a sample
    const wrong = Array.from({ length: 4095 }, (_, index) => index + 1).filter((rank) => table[rank] !== referenceLog2(rank + 1));
    expect(wrong).toEqual([]);
  });

  it('serves the same values from the shared table, which grows past its first 1024 ranks', () => {
    // Act
    const table = rankDiscounts(5000);

    // Assess
    expect(table.length).toBeGreaterThan(5000);
    expect(table[1]).toBe(1);
    expect(table[3]).toBe(2);
    expect(table[5000]).toBe(rankDiscount(5000));
    expect(table[5000]).toBe(referenceLog2(5001));
  });
});

describe('correctlyRoundedLog2', () => {
  it.each([1, 2, 3, 1375, 1621, 65_536, 65_537, 2_000_001, 2 ** 40 + 1, Number.MAX_SAFE_INTEGER])(
    'of %i equals the exact reference',
    (n) => {
      expect(correctlyRoundedLog2(n)).toBe(referenceLog2(n));
    },
  );

  it.each([0, -1, 1.5, Number.NaN])('rejects %s with a message naming the expected value', (n) => {
    expect(() => correctlyRoundedLog2(n)).toThrow(new RangeError(`Expected an integer from 1 and up, got ${n}`));
  });
});
