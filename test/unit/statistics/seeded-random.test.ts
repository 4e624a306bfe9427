import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../../shared/statistics/seeded-random.js';

const draws = (seed: number, count: number): number[] => {
  const random = seededRandom(seed);
  return Array.from({ length: count }, () => random.nextUint32());
};

describe('seededRandom', () => {
  it('gives the same stream for the same seed and another for another seed', () => {
    expect(draws(42, 5)).toEqual(draws(42, 5));
    expect(draws(42, 5)).not.toEqual(draws(43, 5));
  });

  it('takes the seed modulo 2^32', () => {
    expect(draws(2 ** 32 + 1, 3)).toEqual(draws(1, 3));
    expect(draws(-1, 3)).toEqual(draws(2 ** 32 - 1, 3));
  });

  it('gives 32-bit integers with about half of each bit set', () => {
    // 10,000 draws: each bit is set about 5,000 times, standard deviation 50.
    const values = draws(7, 10_000);
    expect(values.every((value) => Number.isInteger(value) && value >= 0 && value < 2 ** 32)).toBe(true);
    for (let bit = 0; bit < 32; bit++) {
      const set = values.filter((value) => (value >>> bit) & 1).length;
      expect(Math.abs(set - 5000)).toBeLessThan(250);
    }
  });

  it('draws every integer below a bound about equally often', () => {
    // 6,000 draws below 6: about 1,000 each, standard deviation √(6000 · 1/6 · 5/6) = 28.9.
    const random = seededRandom(3);
    const counts = [0, 0, 0, 0, 0, 0];
    for (let draw = 0; draw < 6000; draw++) {
      const drawn = random.nextBelow(6);
      const count = counts[drawn];
      if (count === undefined) throw new Error(`Expected a draw below 6, got ${drawn}`);
      counts[drawn] = count + 1;
    }
    for (const count of counts) expect(Math.abs(count - 1000)).toBeLessThan(150);
  });

  it.each([0, 1.5, 2 ** 32 + 1])('throws on a bound of %d', (bound) => {
    expect(() => seededRandom(1).nextBelow(bound)).toThrow(/Expected the bound to be an integer from 1 to 2\^32/);
    expect(() => seededRandom(1).fillBelow(bound, new Uint32Array(1))).toThrow(/Expected the bound to be an integer from 1 to 2\^32/);
  });

  it.each([1, 7, 100, 20_000, 65_537, 2 ** 31 - 1, 3 * 2 ** 30, 2 ** 32 - 1, 2 ** 32])(
    'fills an array with the draws below %d that one call per draw gives, and goes on from there',
    (bound) => {
      // Prepare: 3 · 2^30 rejects a quarter of the draws, so the two must skip the same ones
      const oneByOne = seededRandom(11);
      const nextIndex = oneByOne.drawsBelow(bound);
      const expected = Array.from({ length: 250 }, () => nextIndex());
      const filled = seededRandom(11);
      const first = new Uint32Array(100);
      const second = new Uint32Array(150);

      // Act
      filled.fillBelow(bound, first);
      filled.fillBelow(bound, second);

      // Assess: the same numbers, and the stream after them the same
      expect([...first, ...second]).toEqual(expected);
      expect(filled.nextUint32()).toBe(oneByOne.nextUint32());
    },
  );
});
