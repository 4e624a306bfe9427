import { describe, expect, it } from 'vitest';
import { DEFAULT_RELEVANCE_LEVEL, countGrades, isRelevant, judgeRanking, relevantCount } from '../../../shared/metrics/judged-ranking.js';
import { NEGATIVE, UNJUDGED, gradesOf, ranking } from './factories.js';

describe('judgeRanking', () => {
  it('grades each retrieved id from the judgments, marking absent ids and negative grades', () => {
    // Prepare
    const judgments = new Map([
      ['relevant', 2],
      ['judged-zero', 0],
      ['excluded', -1],
      ['also-excluded', -5],
      ['never-retrieved', 1],
    ]);

    // Act
    const judged = judgeRanking(['judged-zero', 'relevant', 'unknown', 'excluded', 'also-excluded'], judgments);

    // Assess
    expect(gradesOf(judged)).toEqual([0, 2, UNJUDGED, NEGATIVE, NEGATIVE]);
    // Qrels counts include the unretrieved 'never-retrieved' and leave out both negative grades.
    expect(Array.from(judged.gradeCounts)).toEqual([1, 1, 1]);
  });

  it('gives an empty list for an empty run, keeping the qrels counts', () => {
    // Act
    const judged = judgeRanking(
      [],
      new Map([
        ['a', 1],
        ['b', 1],
      ]),
    );

    // Assess
    expect(gradesOf(judged)).toEqual([]);
    expect(Array.from(judged.gradeCounts)).toEqual([0, 2]);
  });
});

describe('countGrades', () => {
  it.each<[string, number[], number[]]>([
    ['no judgments', [], []],
    ['only negative grades', [-1, -2], []],
    ['a gap at grade 1', [0, 2, 2], [1, 0, 2]],
    ['mixed, with negatives skipped', [3, -1, 0, 3, 1], [1, 1, 0, 2]],
  ])('counts %s', (_described, grades, expected) => {
    expect(countGrades(grades)).toEqual(expected);
  });

  it('counts up to the largest grade the readers admit, and throws above it rather than grow to it', () => {
    // Assess: the readers refuse a larger grade as an input error, so one here is a bug
    expect(countGrades([10_000]).length).toBe(10_001);
    expect(() => countGrades([1, 10_001])).toThrow(new RangeError('expected a relevance grade of at most 10000, got 10001'));
  });
});

describe('relevantCount (R)', () => {
  // Qrels: three 0s, two 1s, one 2, one 4 (none at grade 3).
  const judged = ranking([], { 0: 3, 1: 2, 2: 1, 4: 1 });

  it.each([
    // level 0: every judged document, 3 + 2 + 1 + 1 = 7
    [0, 7],
    // level 1 (trec_eval's default): 2 + 1 + 1 = 4
    [1, 4],
    [2, 2],
    [3, 1],
    [4, 1],
    [5, 0],
  ])('at relevance level %i is %i', (level, expected) => {
    expect(relevantCount(judged, level)).toBe(expected);
  });

  it('is 0 for a query without judgments', () => {
    expect(relevantCount(ranking([UNJUDGED], {}), DEFAULT_RELEVANCE_LEVEL)).toBe(0);
  });
});

describe('isRelevant', () => {
  it.each([
    [2, 1, true],
    [1, 1, true],
    [0, 1, false],
    [0, 0, true],
    [1, 2, false],
    // The two markers are never relevant, whatever the level.
    [UNJUDGED, 0, false],
    [NEGATIVE, 0, false],
    [UNJUDGED, -1, false],
    [NEGATIVE, -2, false],
  ])('grade %i at level %i: %s', (grade, level, expected) => {
    expect(isRelevant(grade, level)).toBe(expected);
  });
});
