import { describe, expect, it } from 'vitest';
import { reciprocalRank } from '../../../shared/metrics/reciprocal-rank.js';
import { NEGATIVE, UNJUDGED, ranking, type GradeCounts } from './factories.js';

describe('reciprocalRank (recip_rank)', () => {
  it.each<[string, number[], GradeCounts, number, number]>([
    ['relevant at rank 1', [1, 0], { 0: 1, 1: 1 }, 1, 1],
    // first relevant at rank 3: 1 / 3
    ['relevant first at rank 3', [0, UNJUDGED, 1, 1], { 0: 1, 1: 2 }, 1, 1 / 3],
    // the markers take ranks 1-2 and the judged 0 rank 3: 1 / 4
    ['after unjudged, negative and non-relevant documents', [NEGATIVE, UNJUDGED, 0, 1], { 0: 1, 1: 1 }, 1, 1 / 4],
    ['no relevant document retrieved', [0, 0], { 0: 2, 1: 1 }, 1, 0],
    ['an empty run', [], { 1: 1 }, 1, 0],
    // level 2 skips the 1 at rank 1: 1 / 2
    ['relevance level 2', [1, 2], { 1: 1, 2: 1 }, 2, 1 / 2],
    ['level 0 with a judged 0 on top', [0, 1], { 0: 1, 1: 1 }, 0, 1],
  ])('%s', (_described, grades, counts, level, expected) => {
    expect(reciprocalRank(ranking(grades, counts), level)).toBe(expected);
  });

  it('looks at any depth: a first relevant document at rank 1000 gives 1 / 1000', () => {
    // Prepare
    const grades = [...Array.from({ length: 999 }, () => 0), 1];

    // Act
    const value = reciprocalRank(ranking(grades, { 0: 999, 1: 1 }), 1);

    // Assess
    expect(value).toBe(1 / 1000);
  });
});
