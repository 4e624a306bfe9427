import { describe, expect, it } from 'vitest';
import type { GainScheme } from '../../../shared/metrics/gain.js';
import { ndcg } from '../../../shared/metrics/ndcg.js';
import { NEGATIVE, UNJUDGED, ranking, type GradeCounts } from './factories.js';

/** log2(rank + 1), written out so the expected values below read as formulas. */
const discount = (rank: number): number => Math.log2(rank + 1);

// A graded list: grades 3, 2, 3, 0, 1, 2 at ranks 1-6. The qrels hold one more
// 3 and one more 2 that were not retrieved: {0: 1, 1: 1, 2: 3, 3: 3}.
const graded = ranking([3, 2, 3, 0, 1, 2], { 0: 1, 1: 1, 2: 3, 3: 3 });

describe('ndcg with linear gain (trec_eval ndcg)', () => {
  it('divides the DCG of the list by the DCG of every judged document in ideal order', () => {
    // DCG  = 3/1 + 2/log2(3) + 3/2 + 0 + 1/log2(6) + 2/log2(7)                        = 6.86113
    // IDCG = 3/1 + 3/log2(3) + 3/2 + 2/log2(5) + 2/log2(6) + 2/log2(7) + 1/log2(8)     = 9.07360
    // NDCG = 6.86113 / 9.07360                                                          = 0.75616
    const dcg = 3 / discount(1) + 2 / discount(2) + 3 / discount(3) + 1 / discount(5) + 2 / discount(6);
    const idealDcg =
      3 / discount(1) + 3 / discount(2) + 3 / discount(3) + 2 / discount(4) + 2 / discount(5) + 2 / discount(6) + 1 / discount(7);

    expect(ndcg(graded)).toBeCloseTo(dcg / idealDcg, 14);
    expect(ndcg(graded)).toBeCloseTo(0.7561640298168337, 14);
  });

  it.each<[string, number[], GradeCounts, number]>([
    ['the ideal order', [2, 1, 0], { 0: 1, 1: 1, 2: 1 }, 1],
    // only relevant document at rank 3: (1/log2(4)) / (1/log2(2)) = 0.5
    ['one relevant document at rank 3', [0, 0, 1], { 0: 2, 1: 1 }, 1 / 2],
    // unjudged and negative documents have gain 0: (1/log2(4)) / 1 = 0.5
    ['unjudged and negative documents', [UNJUDGED, NEGATIVE, 1], { 1: 1 }, 1 / 2],
    // the ideal list includes the unretrieved relevant document: 1 / (1 + 1/log2(3)) = 0.61315
    ['a relevant document never retrieved', [1], { 1: 2 }, 1 / (1 + 1 / discount(2))],
    // (1/1 + 2/log2(3)) / (2/1 + 1/log2(3)) = 0.85972
    ['a 1 above a 2', [1, 2], { 1: 1, 2: 1 }, (1 + 2 / discount(2)) / (2 + 1 / discount(2))],
  ])('is right for %s', (_described, grades, counts, expected) => {
    expect(ndcg(ranking(grades, counts))).toBeCloseTo(expected, 14);
  });

  it.each<[string, number[], GradeCounts]>([
    // ideal DCG = 0: 0, not 0 / 0
    ['only judged 0s in the qrels', [0, 0, UNJUDGED], { 0: 3 }],
    ['no qrels at all', [UNJUDGED, UNJUDGED], {}],
    ['only negatively judged documents', [NEGATIVE], {}],
    ['an empty run', [], { 1: 2 }],
    ['no relevant document retrieved', [0, UNJUDGED], { 0: 1, 2: 1 }],
  ])('is 0 for %s', (_described, grades, counts) => {
    expect(ndcg(ranking(grades, counts))).toBe(0);
  });

  it('has no depth cut: a relevant document at rank 1000 still counts', () => {
    // Prepare
    const grades = [...Array.from({ length: 999 }, () => UNJUDGED), 1];

    // Act
    const value = ndcg(ranking(grades, { 1: 1 }));

    // Assess: (1/log2(1001)) / 1 = 0.10031
    expect(value).toBeCloseTo(1 / Math.log2(1001), 14);
  });
});

describe('ndcg with exponential gain (2^g - 1)', () => {
  it('weights high grades more than linear gain does', () => {
    // gains 7, 3, 7, 0, 1, 3
    // DCG  = 7/1 + 3/log2(3) + 7/2 + 1/log2(6) + 3/log2(7)                           = 13.84826
    // IDCG = 7/1 + 7/log2(3) + 7/2 + 3/log2(5) + 3/log2(6) + 3/log2(7) + 1/log2(8)  = 18.77105
    // NDCG = 0.73775 (linear: 0.75616)
    const dcg = 7 / discount(1) + 3 / discount(2) + 7 / discount(3) + 1 / discount(5) + 3 / discount(6);
    const idealDcg =
      7 / discount(1) + 7 / discount(2) + 7 / discount(3) + 3 / discount(4) + 3 / discount(5) + 3 / discount(6) + 1 / discount(7);

    expect(ndcg(graded, 'exponential')).toBeCloseTo(dcg / idealDcg, 14);
    expect(ndcg(graded, 'exponential')).toBeCloseTo(0.7377457678497291, 14);
  });

  it('differs from linear gain on a 1 ranked above a 2', () => {
    // Prepare
    const judged = ranking([1, 2], { 1: 1, 2: 1 });

    // Act
    const linear = ndcg(judged, 'linear');
    const exponential = ndcg(judged, 'exponential');

    // Assess
    // linear:      (1 + 2/log2(3)) / (2 + 1/log2(3)) = 0.85972
    // exponential: (1 + 3/log2(3)) / (3 + 1/log2(3)) = 0.79671
    expect(linear).toBeCloseTo(0.8597186998521972, 14);
    expect(exponential).toBeCloseTo(0.7967075809905066, 14);
  });

  it('agrees with linear gain on binary labels (2^1 - 1 = 1)', () => {
    const binary = ranking([0, 1, UNJUDGED, 1, NEGATIVE], { 0: 3, 1: 4 });
    expect(ndcg(binary, 'exponential')).toBe(ndcg(binary, 'linear'));
  });
});

describe('ndcg with a grade -> gain map (trec_eval ndcg.1=3,2=9)', () => {
  const gains = (entries: [number, number][]): GainScheme => new Map(entries);

  it('uses the mapped gains for the list and the ideal ranking', () => {
    // grades 1, 2, 0 with gains 1 -> 3, 2 -> 9
    // DCG  = 3/1 + 9/log2(3) = 8.67837
    // IDCG = 9/1 + 3/log2(3) = 10.89279
    // NDCG = 0.79671
    const value = ndcg(
      ranking([1, 2, 0], { 0: 1, 1: 1, 2: 1 }),
      gains([
        [1, 3],
        [2, 9],
      ]),
    );
    expect(value).toBeCloseTo((3 + 9 / discount(2)) / (9 + 3 / discount(2)), 14);
    expect(value).toBeCloseTo(0.7967075809905065, 14);
  });

  it('keeps the linear gain of grades the map does not list', () => {
    // grade 1 keeps gain 1, grade 2 gets 9: (1 + 9/log2(3)) / (9 + 1/log2(3))
    const value = ndcg(ranking([1, 2], { 1: 1, 2: 1 }), gains([[2, 9]]));
    expect(value).toBeCloseTo((1 + 9 / discount(2)) / (9 + 1 / discount(2)), 14);
  });

  it('lets a mapped gain of 0 remove a grade from both sums', () => {
    // grade 1 -> 0: DCG = 2/log2(3), IDCG = 2/1, NDCG = 1/log2(3) = 0.63093
    const value = ndcg(ranking([1, 2], { 1: 1, 2: 1 }), gains([[1, 0]]));
    expect(value).toBeCloseTo(1 / discount(2), 14);
  });

  it('gives a judged 0 the gain the map assigns it', () => {
    // grade 0 -> 1: DCG = 1/1 + 1/log2(3) = IDCG, so NDCG = 1
    const value = ndcg(ranking([0, 1], { 0: 1, 1: 1 }), gains([[0, 1]]));
    expect(value).toBeCloseTo(1, 14);
  });

  it('ignores a mapped grade nobody was judged at', () => {
    const judged = ranking([1, 2, 0], { 0: 1, 1: 1, 2: 1 });
    expect(ndcg(judged, gains([[5, 10]]))).toBe(ndcg(judged, 'linear'));
  });

  it('leaves unjudged and negative documents at gain 0', () => {
    // DCG = 3/log2(4) = 1.5, IDCG = 3: 0.5
    const value = ndcg(ranking([UNJUDGED, NEGATIVE, 1], { 1: 1 }), gains([[1, 3]]));
    expect(value).toBe(0.5);
  });

  it('gives unjudged documents the gain the map assigns them', () => {
    // -1 -> 1: DCG = 1/1 + 1/log2(3); the ideal list holds the one judged relevant document: IDCG = 1
    const unjudgedFirst = ranking([UNJUDGED, 1], { 1: 1 });
    const value = ndcg(unjudgedFirst, gains([[-1, 1]]));
    expect(value).toBeCloseTo(1 + 1 / discount(2), 14);
  });

  it('orders levels whose gains differ by less than 1 as trec_eval does (stable, truncated comparison)', () => {
    // Levels: the mapped grade 1 (gain 0.5) first, then grade 0 (gain 0, nobody judged
    // at it). trec_eval's comparison truncates 0.5 - 0 to 0, so the order stays and the
    // top level has gain 0: its ideal DCG is 0 and NDCG is 0, although the list has gain.
    expect(ndcg(ranking([1, 1], { 1: 2 }), gains([[1, 0.5]]))).toBe(0);
    // A gain of 1.5 differs by 1 after truncation and sorts above: DCG = IDCG, NDCG = 1.
    expect(ndcg(ranking([1, 1], { 1: 2 }), gains([[1, 1.5]]))).toBeCloseTo(1, 14);
  });
});
