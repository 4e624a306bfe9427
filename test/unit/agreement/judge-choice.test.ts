import { describe, expect, it } from 'vitest';
import { rankByCost, rankJudges, type CandidateEstimate } from '../../../shared/agreement/judge-choice.js';

/** An estimate over `all` cases, `labelled` of them labelled, with the two intervals' half-widths. */
function estimate(labelled: number, all: number, human: number, corrected: number, bias = 0.1): CandidateEstimate {
  return {
    labelled,
    all,
    humanOnly: { low: 0.5 - human, high: 0.5 + human },
    corrected: { low: 0.5 - corrected, high: 0.5 + corrected },
    bias,
  };
}

describe('ranking candidate judges', () => {
  it('gives each judge the mean width, its ratio to the human-only width, and the human labels it is worth', () => {
    // Prepare: 10 of 50 cases labelled; the corrected interval half as wide as the human-only one
    const [judge] = rankJudges([{ name: 'a', estimates: [estimate(10, 50, 0.2, 0.1)], kappa: 0.4, cost: 2 }]);

    // Assess: n' = 1 / ((1/10 − 1/50) · 0.25 + 1/50) = 1 / 0.04 = 25, so 15 labels gained, 7.5 per unit of cost
    expect(judge).toMatchObject({ name: 'a', estimates: 1, labelled: 10, bias: 0.1, kappa: 0.4, cost: 2 });
    expect(judge?.width).toBeCloseTo(0.2, 12);
    expect(judge?.human_width).toBeCloseTo(0.4, 12);
    expect(judge?.width_ratio).toBeCloseTo(0.5, 12);
    expect(judge?.equivalent_labels).toBeCloseTo(25, 10);
    expect(judge?.labels_gained).toBeCloseTo(15, 10);
    expect(judge?.labels_per_cost).toBeCloseTo(7.5, 10);
  });

  it('averages over the estimates that have an interval, and worth never exceeds every case', () => {
    const [judge] = rankJudges([
      {
        name: 'a',
        estimates: [estimate(10, 50, 0.2, 0.1), estimate(10, 50, 0.2, 0.001), { labelled: 2, all: 50, bias: 0.3 }],
        kappa: null,
        cost: null,
      },
    ]);

    expect(judge?.estimates).toBe(2);
    // The second: n' = 1 / ((0.08) · 0.000025 + 0.02) ≈ 49.99, under the 50 cases
    expect(judge?.equivalent_labels).toBeCloseTo((25 + 1 / (0.08 * 0.000025 + 0.02)) / 2, 8);
    expect(judge?.labels_per_cost).toBeNull();
  });

  it('orders by width, the judges without an interval last, ties by name; and by labels gained per unit of cost', () => {
    const ranked = rankJudges([
      { name: 'cheap-noisy', estimates: [estimate(10, 50, 0.2, 0.18)], kappa: 0.5, cost: 0.1 },
      { name: 'none', estimates: [{ labelled: 2, all: 50 }], kappa: null, cost: 1 },
      { name: 'dear-sharp', estimates: [estimate(10, 50, 0.2, 0.08)], kappa: 0.2, cost: 50 },
      { name: 'b-tie', estimates: [estimate(10, 50, 0.2, 0.18)], kappa: 0.5, cost: null },
    ]);

    expect(ranked.map((judge) => judge.name)).toEqual(['dear-sharp', 'b-tie', 'cheap-noisy', 'none']);
    expect(rankByCost(ranked).map((judge) => judge.name)).toEqual(['cheap-noisy', 'dear-sharp', 'b-tie', 'none']);
  });

  it('counts a judge that helps nothing as worth the labelled cases, and every case labelled as worth them all', () => {
    const [useless, complete] = [
      rankJudges([{ name: 'x', estimates: [estimate(10, 50, 0.2, 0.2)], kappa: 0, cost: 1 }])[0],
      rankJudges([
        {
          name: 'y',
          estimates: [{ labelled: 50, all: 50, humanOnly: { low: 0.5, high: 0.5 }, corrected: { low: 0.5, high: 0.5 } }],
          kappa: 1,
          cost: 1,
        },
      ])[0],
    ];

    expect(useless?.equivalent_labels).toBeCloseTo(10, 10);
    expect(useless?.labels_gained).toBeCloseTo(0, 10);
    expect(complete).toMatchObject({ equivalent_labels: 50, labels_gained: 0, width_ratio: null });
  });
});
