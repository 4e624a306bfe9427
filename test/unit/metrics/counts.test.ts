import { describe, expect, it } from 'vitest';
import { numberRelevant, numberRelevantRetrieved, numberRetrieved } from '../../../shared/metrics/counts.js';
import { NEGATIVE, UNJUDGED, ranking } from './factories.js';

describe('the counting measures', () => {
  // Retrieved: a 1, a 0, a 2, an unjudged and a negatively judged document.
  // Qrels: five 0s, two 1s, one 2 (one 1 and four 0s never retrieved).
  const judged = ranking([1, 0, 2, UNJUDGED, NEGATIVE], { 0: 5, 1: 2, 2: 1 });

  it('num_ret counts every retrieved document, judged or not', () => {
    expect(numberRetrieved(judged)).toBe(5);
  });

  it.each([
    // level 0: 5 + 2 + 1
    [0, 8],
    // level 1: 2 + 1
    [1, 3],
    [2, 1],
    [3, 0],
  ])('num_rel at level %i is %i, retrieved or not', (level, expected) => {
    expect(numberRelevant(judged, level)).toBe(expected);
  });

  it.each([
    // level 0: the 1, the 0 and the 2; never the markers
    [0, 3],
    // level 1: the 1 and the 2
    [1, 2],
    [2, 1],
    [3, 0],
  ])('num_rel_ret at level %i is %i', (level, expected) => {
    expect(numberRelevantRetrieved(judged, level)).toBe(expected);
  });

  it('are all 0 for an empty run without judgments', () => {
    // Prepare
    const empty = ranking([], {});

    // Act
    const counts = [numberRetrieved(empty), numberRelevant(empty, 1), numberRelevantRetrieved(empty, 1)];

    // Assess
    expect(counts).toEqual([0, 0, 0]);
  });
});
