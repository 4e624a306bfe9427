import { describe, expect, it } from 'vitest';
import { countedAgreement } from '../../../shared/agreement/counted-agreement.js';

describe('countedAgreement: agreement from a confusion table alone', () => {
  it('gives exact agreement, kappa, weighted kappa and the binary cut from the counts', () => {
    // Prepare: human (rows) 0,0,1,1,2,2 against judge (columns) 0,1,1,2,2,2: [1 1 0] [0 1 1] [0 0 2].
    const counts = [
      [1, 1, 0],
      [0, 1, 1],
      [0, 0, 2],
    ];

    // Act
    const agreement = countedAgreement(counts, [0, 1, 2], 2);

    // Assess: r = (2, 2, 2), c = (1, 2, 3), N = 6; κ = 1 - 6·2/(36 - 12) = 0.5; κ_w = 1 - 6·2/48 = 0.75.
    // Cut at 2: [[3, 1], [0, 2]]: agreement 5/6, precision 2/3, recall 1, κ = (5/6 - 1/2)/(1/2) = 2/3.
    expect(agreement).toMatchObject({ pairs: 6, cohenKappa: { ok: true, value: 0.5 }, weightedKappa: { ok: true, value: 0.75 } });
    expect(agreement.exactAgreement.ok && agreement.exactAgreement.value).toBeCloseTo(4 / 6, 15);
    expect(agreement.binary.precision.ok && agreement.binary.precision.value).toBeCloseTo(2 / 3, 15);
    expect(agreement.binary.recall).toEqual({ ok: true, value: 1 });
    expect(agreement.binary.kappa.ok && agreement.binary.kappa.value).toBeCloseTo(2 / 3, 15);
  });

  it('gives reasons, not NaN, for an empty table', () => {
    const agreement = countedAgreement([], [], 1);

    expect(agreement.pairs).toBe(0);
    for (const statistic of [
      agreement.exactAgreement,
      agreement.cohenKappa,
      agreement.weightedKappa,
      agreement.binary.precision,
      agreement.binary.recall,
    ])
      expect(statistic.ok).toBe(false);
  });

  it('refuses a table whose rows do not match the categories', () => {
    expect(() => countedAgreement([[1]], [0, 1], 1)).toThrow(/one row of counts per category/);
  });
});
