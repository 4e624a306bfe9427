import { describe, expect, it } from 'vitest';
import { recallAt } from '../../../shared/metrics/recall.js';
import { NEGATIVE, UNJUDGED, ranking, type GradeCounts } from './factories.js';

describe('recallAt (recall.k)', () => {
  it.each<[string, number[], GradeCounts, number, number, number]>([
    // R = 4 (two relevant documents were never retrieved); top 2 holds one: 1 / 4
    ['a cutoff inside the list', [1, 0, 1, 0], { 0: 2, 1: 4 }, 2, 1, 1 / 4],
    // top 4 holds two of the four: 2 / 4
    ['the whole list', [1, 0, 1, 0], { 0: 2, 1: 4 }, 4, 1, 2 / 4],
    // fewer than k results: the count stops at n = 4, still 2 / 4
    ['fewer than k results', [1, 0, 1, 0], { 0: 2, 1: 4 }, 100, 1, 2 / 4],
    ['every relevant document retrieved', [0, 1, 1], { 0: 1, 1: 2 }, 3, 1, 1],
    // R = 0: trec_eval's 0, never 0 / 0
    ['R = 0', [0, 0], { 0: 2 }, 10, 1, 0],
    ['no qrels at all', [UNJUDGED], {}, 10, 1, 0],
    ['an empty run', [], { 1: 3 }, 10, 1, 0],
    // the markers never count: 1 relevant of R = 2
    ['unjudged and negative documents', [UNJUDGED, NEGATIVE, 1], { 1: 2 }, 3, 1, 1 / 2],
    // level 2: R = 3 (the three 2s), two retrieved: 2 / 3
    ['relevance level 2', [2, 1, 2], { 1: 1, 2: 3 }, 3, 2, 2 / 3],
    // level 1 on the same qrels: R = 4, three retrieved: 3 / 4
    ['the same list at level 1', [2, 1, 2], { 1: 1, 2: 3 }, 3, 1, 3 / 4],
  ])('%s', (_described, grades, counts, k, level, expected) => {
    expect(recallAt(ranking(grades, counts), k, level)).toBe(expected);
  });
});
