import { describe, expect, it } from 'vitest';
import { ndcg } from '../../../shared/metrics/ndcg.js';
import { ndcgAt } from '../../../shared/metrics/ndcg-cut.js';
import { NEGATIVE, UNJUDGED, ranking, type GradeCounts } from './factories.js';

const discount = (rank: number): number => Math.log2(rank + 1);

// Grades 3, 2, 3, 0, 1, 2 at ranks 1-6; qrels {0: 1, 1: 1, 2: 3, 3: 3}.
const graded = ranking([3, 2, 3, 0, 1, 2], { 0: 1, 1: 1, 2: 3, 3: 3 });

describe('ndcgAt (ndcg_cut.k)', () => {
  it('cuts both the DCG and the ideal DCG at k', () => {
    // DCG@3  = 3/1 + 2/log2(3) + 3/2 = 5.76186
    // IDCG@3 = 3/1 + 3/log2(3) + 3/2 = 6.39279
    // NDCG@3 = 0.90131 (ndcg without a cut: 0.75616)
    const value = ndcgAt(graded, 3);
    expect(value).toBeCloseTo((3 + 2 / discount(2) + 3 / discount(3)) / (3 + 3 / discount(2) + 3 / discount(3)), 14);
    expect(value).toBeCloseTo(0.901306029678045, 14);
  });

  it('uses 2^g - 1 with exponential gain', () => {
    // DCG@3 = 7 + 3/log2(3) + 7/2, IDCG@3 = 7 + 7/log2(3) + 7/2: 0.83081
    expect(ndcgAt(graded, 3, 'exponential')).toBeCloseTo(
      (7 + 3 / discount(2) + 7 / discount(3)) / (7 + 7 / discount(2) + 7 / discount(3)),
      14,
    );
  });

  it('penalises fewer than k results: the ideal still runs to k', () => {
    // one relevant document retrieved, three in the qrels, k = 3:
    // DCG@3 = 1, IDCG@3 = 1 + 1/log2(3) + 1/2 = 2.13093, NDCG@3 = 0.46928
    expect(ndcgAt(ranking([1], { 1: 3 }), 3)).toBeCloseTo(1 / (1 + 1 / discount(2) + 1 / discount(3)), 14);
  });

  it('reaches 1 when the top k are as good as the ideal, although more relevant documents exist', () => {
    // five relevant in the qrels; the top 3 are relevant: IDCG@3 = DCG@3
    expect(ndcgAt(ranking([1, 1, 1], { 1: 5 }), 3)).toBe(1);
  });

  it.each<[string, number[], GradeCounts, number, number]>([
    // the only relevant document sits below the cut
    ['a relevant document below k', [0, 0, 1], { 0: 2, 1: 1 }, 2, 0],
    ['k = 1 and a non-relevant document on top', [0, 1], { 0: 1, 1: 1 }, 1, 0],
    ['only judged 0s (ideal DCG = 0)', [0, 0], { 0: 2 }, 10, 0],
    ['no qrels at all', [UNJUDGED], {}, 10, 0],
    ['an empty run', [], { 2: 1 }, 10, 0],
    // the markers have gain 0: (2/log2(4)) / (2/1) = 0.5
    ['unjudged and negative documents', [UNJUDGED, NEGATIVE, 2], { 2: 1 }, 3, 0.5],
  ])('is right for %s', (_described, grades, counts, k, expected) => {
    expect(ndcgAt(ranking(grades, counts), k)).toBe(expected);
  });
});

describe('ndcg vs ndcg@k', () => {
  it('differ when the list has relevant documents past k', () => {
    // Prepare: the only relevant document at rank 3
    const judged = ranking([0, 0, 1], { 0: 2, 1: 1 });

    // Act
    const whole = ndcg(judged);
    const cut = ndcgAt(judged, 2);

    // Assess: ndcg = (1/log2(4)) / 1 = 0.5; ndcg@2 = 0 / 1 = 0
    expect(whole).toBe(0.5);
    expect(cut).toBe(0);
  });

  it('differ when the ideal list is longer than k', () => {
    // Prepare: three relevant on top of five in the qrels
    const judged = ranking([1, 1, 1], { 1: 5 });

    // Act
    const whole = ndcg(judged);
    const cut = ndcgAt(judged, 3);

    // Assess
    // ndcg   = (1 + 1/log2(3) + 1/2) / (1 + 1/log2(3) + 1/2 + 1/log2(5) + 1/log2(6)) = 0.72273
    // ndcg@3 = 1
    expect(whole).toBeCloseTo(
      (1 + 1 / discount(2) + 1 / discount(3)) / (1 + 1 / discount(2) + 1 / discount(3) + 1 / discount(4) + 1 / discount(5)),
      14,
    );
    expect(cut).toBe(1);
  });

  it('agree, bit for bit, once k covers the list and every relevant document', () => {
    expect(ndcgAt(graded, 7)).toBe(ndcg(graded));
    expect(ndcgAt(graded, 1000)).toBe(ndcg(graded));
  });
});
