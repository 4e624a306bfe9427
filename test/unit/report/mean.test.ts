import { describe, expect, it } from 'vitest';
import { mean } from '../../../shared/report/metric-statistics.js';

describe('mean', () => {
  it.each<[string, number[], number | undefined]>([
    ['no value', [], undefined],
    // (0.5 + 1) / 2
    ['two values', [0.5, 1], 0.75],
    // the plain sum overflows to Infinity; 1.5e308 / 2 + 1.5e308 / 2 does not
    ['values whose sum overflows', [1.5e308, 1.5e308], 1.5e308],
    ['opposite huge values', [Number.MAX_VALUE, -Number.MAX_VALUE], 0],
  ])('of %s', (_described, numbers, expected) => {
    expect(mean(numbers)).toBe(expected);
  });
});
