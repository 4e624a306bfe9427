import { describe, expect, it } from 'vitest';
import { agreementReportSchema } from '../../../shared/schema/agreement.js';
import { correctedEstimateSchema } from '../../../shared/schema/report.js';

/** An estimate as report.json has held it since before the unit was named. */
const STORED = {
  labelled: 9,
  cases: 12,
  population: 'finite',
  reason: 'the 9 labelled cases all have the human value 1: no spread to estimate the other 3 from',
};

/** The smallest agreement report: two qrels with nothing in common. */
const AGREEMENT = {
  pairs: 0,
  human_only: 1,
  judge_only: 1,
  categories: [0, 1],
  exact_agreement: null,
  cohen_kappa: null,
  weighted_kappa: null,
  binary: { level: 1, kappa: null, agreement: null, precision: null, recall: null },
  confusion: { '0': { '0': 0, '1': 0 }, '1': { '0': 0, '1': 0 } },
  intervals: { level: 0.95, resamples: 1000, seed: 0, cohen_kappa: null, weighted_kappa: null, binary_kappa: null },
  reasons: { cohen_kappa: 'no pair is labelled in both' },
};

describe('the corrected estimate schema', () => {
  it('reads a stored report entry without a unit, which counts cases', () => {
    expect(correctedEstimateSchema.parse(STORED)).toStrictEqual(STORED);
  });

  it.each([
    ['an unknown unit', { ...STORED, unit: 'queries' }],
    ['a count that is no whole number', { ...STORED, cases: 12.5 }],
    ['the agreement names of old, without the counts', { topics: 12, labelled_topics: 9, judge_only: { mean: 0.5 } }],
  ])('refuses %s', (_name, entry) => {
    expect(correctedEstimateSchema.safeParse(entry).success).toBe(false);
  });
});

describe('the agreement report schema', () => {
  it('holds a report without runs: no systems, estimates or differences', () => {
    expect(agreementReportSchema.parse(AGREEMENT)).toStrictEqual(AGREEMENT);
  });

  it('holds an estimate of a run in the corrected estimate shape, beside the run and measure', () => {
    // Prepare
    const estimate = { run: 'bm25', measure: 'ndcg_cut_10', unit: 'topics', ...STORED, judge_only: 0.6 };

    // Act
    const parsed = agreementReportSchema.parse({ ...AGREEMENT, estimates: [estimate], differences: [] });

    // Assess
    expect(parsed.estimates).toStrictEqual([estimate]);
  });
});
