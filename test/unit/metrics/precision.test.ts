import { describe, expect, it } from 'vitest';
import { precisionAt, relevantInTop } from '../../../shared/metrics/precision.js';
import { NEGATIVE, UNJUDGED, ranking, type GradeCounts } from './factories.js';

describe('precisionAt (P.k)', () => {
  it.each<[string, number[], GradeCounts, number, number, number]>([
    // relevant at ranks 1, 3 of the top 5: 2 / 5
    ['relevant at ranks 1 and 3', [1, 0, 1, 0, 0], { 0: 3, 1: 2 }, 5, 1, 2 / 5],
    // the top 2 holds one relevant document: 1 / 2
    ['a cutoff inside the list', [1, 0, 1, 0, 0], { 0: 3, 1: 2 }, 2, 1, 1 / 2],
    ['no relevant document at rank 1', [0, 1], { 0: 1, 1: 1 }, 1, 1, 0],
    // three relevant documents, ranks 4..10 missing and non-relevant: 3 / 10, not 3 / 3
    ['fewer than k results', [1, 1, 1], { 1: 3 }, 10, 1, 3 / 10],
    ['an empty run', [], { 1: 4 }, 5, 1, 0],
    ['no judgments at all', [UNJUDGED, UNJUDGED], {}, 2, 1, 0],
    // unjudged and negatively judged documents are not relevant: 1 / 3
    ['unjudged and negative documents', [UNJUDGED, NEGATIVE, 1], { 1: 1 }, 3, 1, 1 / 3],
    // level 2: only the 2 and the 3 count, 2 / 4
    ['relevance level 2', [2, 1, 3, 0], { 0: 1, 1: 1, 2: 1, 3: 1 }, 4, 2, 2 / 4],
    // level 1: the 2, the 1 and the 3, 3 / 4
    ['the same list at level 1', [2, 1, 3, 0], { 0: 1, 1: 1, 2: 1, 3: 1 }, 4, 1, 3 / 4],
    // level 0 makes judged 0s relevant but never the markers: 0 and 1 out of 4, 2 / 4
    ['relevance level 0', [0, UNJUDGED, NEGATIVE, 1], { 0: 1, 1: 1 }, 4, 0, 2 / 4],
  ])('%s', (_described, grades, counts, k, level, expected) => {
    // Act
    const precision = precisionAt(ranking(grades, counts), k, level);

    // Assess
    expect(precision).toBe(expected);
  });
});

describe('relevantInTop', () => {
  const judged = ranking([1, 0, 2, UNJUDGED, 1], { 0: 1, 1: 2, 2: 1 });

  it.each([
    [1, 1],
    [2, 1],
    [3, 2],
    [4, 2],
    [5, 3],
    // past the end the count stops at n = 5
    [1000, 3],
  ])('counts the relevant documents in the top %i: %i', (k, expected) => {
    expect(relevantInTop(judged, k, 1)).toBe(expected);
  });
});
