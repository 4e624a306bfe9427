import { describe, expect, it } from 'vitest';
import { rPrecision } from '../../../shared/metrics/r-precision.js';
import { NEGATIVE, UNJUDGED, ranking, type GradeCounts } from './factories.js';

describe('rPrecision (Rprec)', () => {
  it.each<[string, number[], GradeCounts, number, number]>([
    // R = 4: the top 4 hold ranks 1, 3 relevant: 2 / 4 (ranks 5, 6 are past R)
    ['relevant documents past rank R', [1, 0, 1, 0, 1, 1], { 0: 2, 1: 4 }, 1, 2 / 4],
    // a list shorter than R = 4: 2 relevant of the 2 retrieved, still divided by 4
    ['a list shorter than R', [1, 1], { 1: 4 }, 1, 2 / 4],
    ['every relevant document in the top R', [1, 1, 0], { 0: 1, 1: 2 }, 1, 1],
    // R = 2 and the only relevant document retrieved is at rank 3: 0 / 2
    ['relevant only below rank R', [0, 0, 1], { 0: 2, 1: 2 }, 1, 0],
    ['R = 0', [0, UNJUDGED], { 0: 1 }, 1, 0],
    ['an empty run', [], { 1: 2 }, 1, 0],
    // R = 3; the top 3 hold one relevant: 1 / 3
    ['unjudged and negative documents', [UNJUDGED, 1, NEGATIVE, 1], { 1: 3 }, 1, 1 / 3],
    // level 2: R = 1 (the single 2), the top 1 is a 1: 0 / 1
    ['relevance level 2, missed', [1, 2], { 1: 1, 2: 1 }, 2, 0],
    // level 2: R = 1 and the 2 is on top: 1 / 1
    ['relevance level 2, found', [2, 1], { 1: 1, 2: 1 }, 2, 1],
  ])('%s', (_described, grades, counts, level, expected) => {
    expect(rPrecision(ranking(grades, counts), level)).toBe(expected);
  });
});
