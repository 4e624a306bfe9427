import { logBeta } from './log-gamma.js';

/** Stop once a convergent changes by less than this factor. */
const RELATIVE_TOLERANCE = 1e-15;
/** Stands in for a zero denominator, as the modified Lentz method prescribes. */
const TINY = 1e-300;
/**
 * Enough for a, b up to ~10^8 at the worst x (the fraction needs a number of
 * terms that grows like √max(a, b)); past it the last convergent is returned.
 */
const MAX_TERMS = 200_000;

/**
 * The regularized incomplete beta function
 *
 *   I_x(a, b) = (1 / B(a, b)) ∫_0^x t^(a-1) (1-t)^(b-1) dt,   0 <= x <= 1, a, b > 0,
 *
 * the cumulative distribution function of Beta(a, b) (Student's t and
 * Fisher's F tails are special cases).
 *
 * Evaluated with the continued fraction
 *
 *   I_x(a, b) = x^a (1-x)^b / (a B(a, b)) · 1 / (1 + d_1 / (1 + d_2 / (1 + ...)))
 *   d_(2m+1) = -(a + m)(a + b + m) x / ((a + 2m)(a + 2m + 1)),   m = 0, 1, ...
 *   d_(2m)   = m (b - m) x / ((a + 2m - 1)(a + 2m)),             m = 1, 2, ...
 *
 * (Abramowitz & Stegun 26.5.8), computed front to back by the modified Lentz
 * method. It converges fast for x < (a + 1) / (a + b + 2); above that the
 * symmetry I_x(a, b) = 1 - I_(1-x)(b, a) is used instead.
 *
 * Edge cases: I_0 = 0 and I_1 = 1 exactly; the result is clamped to [0, 1].
 * x outside [0, 1], or a or b not positive and finite, is a bug and throws.
 */
export function regularizedIncompleteBeta(x: number, a: number, b: number): number {
  if (!(x >= 0 && x <= 1)) throw new RangeError(`Expected x from 0 to 1, got ${x}`);
  for (const [name, value] of [
    ['a', a],
    ['b', b],
  ] as const) {
    if (!(value > 0) || !Number.isFinite(value)) throw new RangeError(`Expected ${name} to be a positive finite number, got ${value}`);
  }
  if (x === 0) return 0;
  if (x === 1) return 1;
  // ln(x^a (1-x)^b / B(a, b)): the same whichever side the fraction is taken from.
  const logFront = a * Math.log(x) + b * Math.log1p(-x) - logBeta(a, b);
  const value =
    x < (a + 1) / (a + b + 2)
      ? (Math.exp(logFront) / a) * reciprocalOfFraction(x, a, b)
      : 1 - (Math.exp(logFront) / b) * reciprocalOfFraction(1 - x, b, a);
  return Math.min(1, Math.max(0, value));
}

/** 1 / (1 + d_1 / (1 + d_2 / (1 + ...))) with the d_k above. */
function reciprocalOfFraction(x: number, a: number, b: number): number {
  // Modified Lentz for f = 1 + d_1 / (1 + d_2 / ...): f_k = f_(k-1) · C_k · D_k
  // with C_k = 1 + d_k / C_(k-1) and D_k = 1 / (1 + d_k D_(k-1)), C_0 = 1, D_0 = 0.
  let value = 1;
  let numeratorRatio = 1;
  let denominatorRatio = 0;
  for (let term = 1; term <= MAX_TERMS; term++) {
    const coefficient = fractionCoefficient(term, x, a, b);
    denominatorRatio = 1 + coefficient * denominatorRatio;
    if (Math.abs(denominatorRatio) < TINY) denominatorRatio = TINY;
    denominatorRatio = 1 / denominatorRatio;
    numeratorRatio = 1 + coefficient / numeratorRatio;
    if (Math.abs(numeratorRatio) < TINY) numeratorRatio = TINY;
    const change = numeratorRatio * denominatorRatio;
    value *= change;
    if (Math.abs(change - 1) < RELATIVE_TOLERANCE) break;
  }
  return 1 / value;
}

/** d_k of the continued fraction. */
function fractionCoefficient(term: number, x: number, a: number, b: number): number {
  if (term % 2 === 1) {
    const m = (term - 1) / 2;
    return (-(a + m) * (a + b + m) * x) / ((a + 2 * m) * (a + 2 * m + 1));
  }
  const m = term / 2;
  return (m * (b - m) * x) / ((a + 2 * m - 1) * (a + 2 * m));
}
