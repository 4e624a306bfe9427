import { describe, expect, it } from 'vitest';
import { logBeta, logGamma } from '../../../shared/statistics/log-gamma.js';
import { regularizedIncompleteBeta } from '../../../shared/statistics/regularized-incomplete-beta.js';

describe('logGamma', () => {
  it.each<[number, number]>([
    // Γ(n) = (n - 1)!
    [1, 0],
    [2, 0],
    [5, Math.log(24)],
    [20, Math.log(121645100408832000)],
    // Γ(1/2) = √π, Γ(3/2) = √π / 2
    [0.5, 0.5 * Math.log(Math.PI)],
    [1.5, 0.5 * Math.log(Math.PI) - Math.log(2)],
    // Γ(z) ~ 1/z as z -> 0 (math.lgamma(1e-10) = 23.025850929882736)
    [1e-10, 23.025850929882736],
    // 99! (math.lgamma(100) = 359.1342053695754)
    [100, 359.1342053695754],
  ])('ln Γ(%d)', (z, expected) => {
    expect(logGamma(z)).toBeCloseTo(expected, 13);
  });

  it('gives ln B(a, b) = ln Γ(a) + ln Γ(b) - ln Γ(a + b): B(2, 3) = 1! 2! / 4! = 1/12', () => {
    expect(logBeta(2, 3)).toBeCloseTo(Math.log(1 / 12), 14);
  });

  it.each([0, -1, Number.NaN, Number.POSITIVE_INFINITY])('throws on %d', (z) => {
    expect(() => logGamma(z)).toThrow(/Expected a positive finite number/);
  });
});

describe('regularizedIncompleteBeta', () => {
  it.each<[string, number, number, number, number]>([
    // I_x(a, 1) = x^a: 0.25^3 = 0.015625
    ['b = 1', 0.25, 3, 1, 0.25 ** 3],
    // I_x(1, b) = 1 - (1 - x)^b: 1 - 0.75^3 = 0.578125
    ['a = 1', 0.25, 1, 3, 1 - 0.75 ** 3],
    // Integer a, b: P(Binomial(a + b - 1, x) >= a) = Σ_(j=4..7) C(7, j) 0.7^j 0.3^(7-j)
    //   = 35·0.2401·0.027 + 21·0.16807·0.09 + 7·0.117649·0.3 + 0.0823543 = 0.873964
    ['integer a and b', 0.7, 4, 4, 0.873964],
    // I_x(2, 3) = Σ_(j=2..4) C(4, j) 0.4^j 0.6^(4-j) = 6·0.16·0.36 + 4·0.064·0.6 + 0.0256 = 0.5248
    ['a = 2, b = 3', 0.4, 2, 3, 0.5248],
    // Symmetric a = b at x = 1/2: 1/2
    ['a = b at one half', 0.5, 10, 10, 0.5],
    // Arcsine law: I_x(1/2, 1/2) = (2/π) asin(√x)
    ['a = b = 1/2', 0.1, 0.5, 0.5, (2 / Math.PI) * Math.asin(Math.sqrt(0.1))],
    // Values from scipy.special.betainc
    ['a large, x near 1 (the symmetric side)', 0.999, 200, 0.5, 0.5272441070252349],
    ['x tiny', 1e-5, 2, 30, 4.64910109438821e-8],
    ['a = 1/2, b = 5/2', 0.2, 0.5, 2.5, 0.6856273623529828],
  ])('is right for %s', (_described, x, a, b, expected) => {
    const value = regularizedIncompleteBeta(x, a, b);
    expect(Math.abs(value - expected)).toBeLessThan(1e-12 * Math.max(1, expected));
    expect(value / expected).toBeCloseTo(1, 11);
  });

  it.each<[number, number, number]>([
    [0.3, 2, 5],
    [0.9, 0.5, 7],
    [0.01, 40, 3],
  ])('satisfies I_x(a, b) = 1 - I_(1-x)(b, a) at x = %d, a = %d, b = %d', (x, a, b) => {
    expect(regularizedIncompleteBeta(x, a, b)).toBeCloseTo(1 - regularizedIncompleteBeta(1 - x, b, a), 14);
  });

  it('is 0 at x = 0 and 1 at x = 1, exactly', () => {
    expect(regularizedIncompleteBeta(0, 3, 0.5)).toBe(0);
    expect(regularizedIncompleteBeta(1, 3, 0.5)).toBe(1);
  });

  it.each<[number, number, number, RegExp]>([
    [-0.1, 1, 1, /Expected x from 0 to 1, got -0.1/],
    [Number.NaN, 1, 1, /Expected x from 0 to 1, got NaN/],
    [0.5, 0, 1, /Expected a to be a positive finite number, got 0/],
    [0.5, 1, Number.POSITIVE_INFINITY, /Expected b to be a positive finite number, got Infinity/],
  ])('throws on x = %d, a = %d, b = %d', (x, a, b, message) => {
    expect(() => regularizedIncompleteBeta(x, a, b)).toThrow(message);
  });
});
