import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bootstrapMeanInterval } from '../../../shared/statistics/bootstrap-mean-interval.js';
import { pairedRandomizationTest } from '../../../shared/statistics/paired-randomization-test.js';
import { pairedTTest } from '../../../shared/statistics/paired-t-test.js';
import { regularizedIncompleteBeta } from '../../../shared/statistics/regularized-incomplete-beta.js';

// Seeded, so a failure reproduces.
const settings = { seed: 20250607, numRuns: 200 } as const;

/** Deltas as a comparison gives them, the awkward ones included: zeros, ties, tiny and huge magnitudes. */
const deltasArbitrary = fc.array(
  fc.oneof(
    fc.double({ min: -1, max: 1, noNaN: true }),
    fc.constantFrom(0, -0, 0.1, -0.1, 1),
    fc.double({ min: -1e300, max: 1e300, noNaN: true }),
  ),
  { maxLength: 40 },
);

const isProbability = (value: number): boolean => value >= 0 && value <= 1;

describe('statistics properties', () => {
  it('randomization p-values are probabilities and the same for negated deltas', () => {
    fc.assert(
      fc.property(deltasArbitrary, fc.integer(), (deltas, seed) => {
        const options = { permutations: 300, seed };
        const pValue = pairedRandomizationTest(deltas, options);
        expect(isProbability(pValue)).toBe(true);
        // Negating every delta maps each sign pattern to its mirror: the same count.
        expect(
          pairedRandomizationTest(
            deltas.map((delta) => -delta),
            options,
          ),
        ).toBe(pValue);
      }),
      settings,
    );
  });

  it('t-test p-values are probabilities, never NaN, and the same for negated deltas', () => {
    fc.assert(
      fc.property(deltasArbitrary, (deltas) => {
        const result = pairedTTest(deltas);
        expect(isProbability(result.pValue)).toBe(true);
        expect(Number.isNaN(result.t)).toBe(false);
        const negated = pairedTTest(deltas.map((delta) => -delta));
        expect(negated.pValue).toBe(result.pValue);
        // === rather than toBe: t = 0 negates to -0, which Object.is tells apart.
        expect(negated.t === -result.t).toBe(true);
      }),
      settings,
    );
  });

  it('bootstrap intervals lie within the values, low <= high', () => {
    fc.assert(
      fc.property(deltasArbitrary, fc.integer(), (values, seed) => {
        const interval = bootstrapMeanInterval(values, { seed, resamples: 50 });
        expect(interval === undefined).toBe(values.length === 0);
        if (interval === undefined) return;
        const { low, high } = interval;
        expect(low).toBeLessThanOrEqual(high);
        expect(low).toBeGreaterThanOrEqual(Math.min(...values));
        expect(high).toBeLessThanOrEqual(Math.max(...values));
      }),
      settings,
    );
  });

  it('the incomplete beta is a probability and grows with x', () => {
    const parameter = fc.double({ min: 0.05, max: 500, noNaN: true });
    fc.assert(
      fc.property(
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        parameter,
        parameter,
        (x, y, a, b) => {
          const [lower, upper] = x <= y ? [x, y] : [y, x];
          const atLower = regularizedIncompleteBeta(lower, a, b);
          expect(isProbability(atLower)).toBe(true);
          // Monotone up to rounding: the two sides of the symmetry switch may differ in the last bits.
          expect(regularizedIncompleteBeta(upper, a, b)).toBeGreaterThanOrEqual(atLower - 1e-12);
        },
      ),
      settings,
    );
  });
});
