import { describe, expect, it } from 'vitest';
import { compactLetterDisplay, letterName } from '../../../shared/statistics/compact-letter-display.js';
import { seededRandom } from '../../../shared/statistics/seeded-random.js';

describe('compactLetterDisplay', () => {
  it('gives every system the one letter a when nothing is separated', () => {
    expect(compactLetterDisplay(3, [])).toEqual([['a'], ['a'], ['a']]);
  });

  it('gives each system its own letter when every pair is separated', () => {
    expect(
      compactLetterDisplay(3, [
        [0, 1],
        [0, 2],
        [1, 2],
      ]),
    ).toEqual([['a'], ['b'], ['c']]);
  });

  it('works five systems out by hand, insert and absorb', () => {
    // Arrange: 0 is separated from 3 and 4, 1 from 4.
    // {01234} -(0,3)-> {1234} {0124} -(0,4)-> {1234} {124} {012}, {124} absorbed by {1234}
    //         -(1,4)-> {234} {123} {012}: letters by the best member, a = {012}, b = {123}, c = {234}.
    const separated: [number, number][] = [
      [0, 3],
      [0, 4],
      [1, 4],
    ];

    // Act
    const letters = compactLetterDisplay(5, separated);

    // Assess
    expect(letters).toEqual([['a'], ['a', 'b'], ['a', 'b', 'c'], ['b', 'c'], ['c']]);
  });

  it('lets two systems share a letter exactly when they are not separated, on random separations', () => {
    // Arrange
    const random = seededRandom(41);
    for (let draw = 0; draw < 100; draw++) {
      const count = 2 + random.nextBelow(9);
      const separated: [number, number][] = [];
      for (let first = 0; first < count; first++)
        for (let second = first + 1; second < count; second++) if (random.nextBelow(3) === 0) separated.push([first, second]);

      // Act
      const letters = compactLetterDisplay(count, separated) as string[][];

      // Assess
      for (let first = 0; first < count; first++) {
        expect(letters[first]?.length).toBeGreaterThan(0);
        for (let second = first + 1; second < count; second++) {
          const shared = letters[first]?.some((letter) => letters[second]?.includes(letter)) ?? false;
          const isSeparated = separated.some(([left, right]) => left === first && right === second);
          expect(shared).toBe(!isSeparated);
        }
      }
    }
  });

  it('gives up past maxGroups, and throws on a pair that names no system', () => {
    // Four disjoint separated pairs double the groups each time: 16 groups.
    const pairs: [number, number][] = [
      [0, 1],
      [2, 3],
      [4, 5],
      [6, 7],
    ];
    expect(compactLetterDisplay(8, pairs, 8)).toBeUndefined();
    expect(compactLetterDisplay(8, pairs)?.every((letters) => letters.length === 8)).toBe(true);
    expect(() => compactLetterDisplay(2, [[0, 2]])).toThrow(RangeError);
    expect(() => compactLetterDisplay(2, [[1, 1]])).toThrow(RangeError);
  });
});

describe('letterName', () => {
  it.each([
    [0, 'a'],
    [25, 'z'],
    [26, 'aa'],
    [51, 'az'],
    [52, 'ba'],
    [701, 'zz'],
    [702, 'aaa'],
  ])('names letter %d %s', (index, name) => {
    expect(letterName(index)).toBe(name);
  });
});
