import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CountBelow } from '../../../shared/trec/count-below.js';

/** The reference: a plain count. */
function countBelow(values: readonly number[], score: number): number {
  return values.filter((value) => value < score).length;
}

const scoreArbitrary = fc.oneof(
  fc.double({ noNaN: true }),
  fc.integer({ min: -20, max: 20 }).map((value) => value / 4),
  fc.constantFrom(0, -0, Number.MAX_VALUE, -Number.MAX_VALUE, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY),
);

describe('CountBelow', () => {
  it('counts the values below any score as a plain count does, for any sorted values: repeats, zeros of both signs, infinities, huge ranges', () => {
    fc.assert(
      fc.property(
        fc.array(scoreArbitrary, { maxLength: 60 }),
        fc.array(scoreArbitrary, { minLength: 1, maxLength: 60 }),
        (values, scores) => {
          // Prepare
          const counter = new CountBelow(Float64Array.from(values).sort());

          // Act
          const counted = scores.map((score) => counter.of(score));

          // Assess
          expect(counted).toEqual(scores.map((score) => countBelow(values, score)));
        },
      ),
      { seed: 20_261_125, numRuns: 500 },
    );
  });

  it.each<[string, number[], number, number]>([
    ['no values', [], 3, 0],
    ['one value, score above', [2], 3, 1],
    ['one value, score equal', [2], 2, 0],
    ['a score below the range', [1, 2, 3], -100, 0],
    ['a score above the range', [1, 2, 3], 100, 3],
    ['a score equal to repeated values', [1, 2, 2, 2, 3], 2, 1],
    ['-0 among zeros', [-1, 0, 0, 1], -0, 1],
  ])('counts with %s', (_described, values, score, expected) => {
    expect(new CountBelow(Float64Array.from(values)).of(score)).toBe(expected);
  });
});
