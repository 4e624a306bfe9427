import { describe, expect, it } from 'vitest';
import { averagePrecision, averagePrecisionAt } from '../../../shared/metrics/average-precision.js';
import { NEGATIVE, UNJUDGED, ranking, type GradeCounts } from './factories.js';

// Expected values are written as the same sum, in rank order, that trec_eval's
// m_map.c computes, so the comparisons are exact.

describe('averagePrecision (map)', () => {
  it.each<[string, number[], GradeCounts, number, number]>([
    // relevant at ranks 1, 3 of R = 4: (1/1 + 2/3) / 4 = 0.41666…
    ['relevant at ranks 1 and 3 of R = 4', [1, 0, 1, 0], { 0: 2, 1: 4 }, 1, (1 / 1 + 2 / 3) / 4],
    // both relevant documents on top: (1/1 + 2/2) / 2 = 1
    ['every relevant document on top', [1, 1, 0], { 0: 1, 1: 2 }, 1, 1],
    // relevant at ranks 2, 4 of R = 2: (1/2 + 2/4) / 2 = 0.5
    ['relevant at ranks 2 and 4', [0, 1, 0, 1], { 0: 2, 1: 2 }, 1, (1 / 2 + 2 / 4) / 2],
    // the unretrieved relevant document adds precision 0: (1/1) / 3 = 0.333…
    ['relevant documents never retrieved', [1, 0], { 0: 1, 1: 3 }, 1, 1 / 1 / 3],
    ['no relevant document retrieved', [0, 0, UNJUDGED], { 0: 2, 1: 1 }, 1, 0],
    ['R = 0', [0, UNJUDGED], { 0: 1 }, 1, 0],
    ['an empty run', [], { 1: 2 }, 1, 0],
    // the markers are not relevant but take ranks: (1/2 + 2/4) / 2 = 0.5
    ['unjudged and negative documents', [UNJUDGED, 1, NEGATIVE, 1], { 1: 2 }, 1, (1 / 2 + 2 / 4) / 2],
    // level 2: R = 2, the 2s at ranks 2, 3: (1/2 + 2/3) / 2 = 0.58333…
    ['relevance level 2', [1, 2, 2], { 1: 1, 2: 2 }, 2, (1 / 2 + 2 / 3) / 2],
    // level 1 on the same list: (1/1 + 2/2 + 3/3) / 3 = 1
    ['the same list at level 1', [1, 2, 2], { 1: 1, 2: 2 }, 1, 1],
    // level 0: the 0 at rank 1 and the 1 at rank 3 of R = 2: (1/1 + 2/3) / 2
    ['relevance level 0', [0, UNJUDGED, 1], { 0: 1, 1: 1 }, 0, (1 / 1 + 2 / 3) / 2],
  ])('%s', (_described, grades, counts, level, expected) => {
    expect(averagePrecision(ranking(grades, counts), level)).toBe(expected);
  });

  it('equals 0.41666… for relevant at ranks 1 and 3 of R = 4', () => {
    expect(averagePrecision(ranking([1, 0, 1, 0], { 0: 2, 1: 4 }), 1)).toBeCloseTo(5 / 12, 15);
  });
});

describe('averagePrecisionAt (map_cut.k)', () => {
  // relevant at ranks 1, 3, 5 of R = 5
  const judged = ranking([1, 0, 1, 0, 1], { 0: 2, 1: 5 });

  it.each([
    // (1/1) / 5, divided by R = 5 and not by min(R, k) = 1
    [1, 1 / 1 / 5],
    [2, 1 / 1 / 5],
    // (1/1 + 2/3) / 5 = 1/3
    [3, (1 / 1 + 2 / 3) / 5],
    // (1/1 + 2/3 + 3/5) / 5
    [5, (1 / 1 + 2 / 3 + 3 / 5) / 5],
    // past the end of the list: the same as k = 5
    [1000, (1 / 1 + 2 / 3 + 3 / 5) / 5],
  ])('at k = %i', (k, expected) => {
    expect(averagePrecisionAt(judged, k, 1)).toBe(expected);
  });

  it('divides by R even when every document of the top k is relevant', () => {
    // three relevant on top of R = 3, cut at 1: (1/1) / 3 = 0.333…, not 1
    expect(averagePrecisionAt(ranking([1, 1, 1], { 1: 3 }), 1, 1)).toBe(1 / 3);
  });

  it('equals averagePrecision once k covers the list', () => {
    expect(averagePrecisionAt(judged, 5, 1)).toBe(averagePrecision(judged, 1));
  });

  it.each<[string, number[], GradeCounts]>([
    ['R = 0', [0, 0], { 0: 2 }],
    ['an empty run', [], { 1: 1 }],
    ['no relevant document in the top k', [0, 0, 1], { 0: 2, 1: 1 }],
  ])('is 0 for %s', (_described, grades, counts) => {
    expect(averagePrecisionAt(ranking(grades, counts), 2, 1)).toBe(0);
  });
});
