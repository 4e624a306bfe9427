import { describe, expect, it } from 'vitest';
import { hitAt } from '../../../shared/metrics/hit.js';
import { NEGATIVE, UNJUDGED, ranking, type GradeCounts } from './factories.js';

describe('hitAt (success.k)', () => {
  it.each<[string, number[], GradeCounts, number, number, number]>([
    ['relevant at rank 3, k = 2', [0, 0, 1], { 0: 2, 1: 1 }, 2, 1, 0],
    ['relevant at rank 3, k = 3', [0, 0, 1], { 0: 2, 1: 1 }, 3, 1, 1],
    // fewer than k results: the top min(k, n) = 3 decide
    ['fewer than k results', [0, 0, 1], { 0: 2, 1: 1 }, 10, 1, 1],
    ['two relevant documents still count once', [1, 1], { 1: 2 }, 2, 1, 1],
    ['an empty run', [], { 1: 1 }, 5, 1, 0],
    ['only unjudged, negative and non-relevant documents', [UNJUDGED, NEGATIVE, 0], { 0: 1, 1: 1 }, 3, 1, 0],
    ['relevance level 2 with only 1s', [1, 1], { 1: 2, 2: 1 }, 2, 2, 0],
    ['relevance level 2 with a 2 at rank 2', [1, 2], { 1: 1, 2: 1 }, 2, 2, 1],
  ])('%s', (_described, grades, counts, k, level, expected) => {
    expect(hitAt(ranking(grades, counts), k, level)).toBe(expected);
  });
});
