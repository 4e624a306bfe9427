import type { JudgeAgreement, Report } from '../../../shared/schema/report.js';

/** A report of 10 evaluated cases, overridable field by field. */
export function report(overrides: Partial<Report> = {}): Report {
  return {
    run_id: 'r-0000000000000001',
    suite: 'nightly',
    dataset: 'datasets/nightly/queries.jsonl',
    config_hash: 'hash-1',
    created_at: '2026-11-01T02:00:00.000Z',
    judge: 'gpt-4o-mini at https://api.openai.com/v1',
    cases: { total: 10, evaluated: 10, failed: 0, missing: 0 },
    input_errors: 0,
    engines: { bm25: { 'retrieval/ground_truth/ndcg@10/average': 0.5, 'retrieval/ground_truth/ndcg@10/count': 10 } },
    judges: {},
    missing_cases: [],
    failed_cases: [],
    ...overrides,
  };
}

/** A judge's agreement with the human labels, with its confusion table and reasons. */
export function agreement(overrides: Partial<JudgeAgreement> = {}): JudgeAgreement {
  return {
    pairs: 40,
    exact_agreement: 0.8,
    cohen_kappa: 0.6,
    weighted_kappa: 0.7,
    binary: { level: 1, kappa: 0.65, agreement: 0.85, precision: 0.9, recall: 0.8 },
    confusion: { '0': { '0': 20, '1': 4 }, '1': { '0': 4, '1': 12 } },
    reasons: {},
    ...overrides,
  };
}

/** The report of night `night` (1-based) of a suite: a run id and a time of its own, one ndcg@10 per engine. */
export function nightlyReport(night: number, ndcg: Readonly<Record<string, number>>, overrides: Partial<Report> = {}): Report {
  return report({
    run_id: `r-${night.toString(16).padStart(16, '0')}`,
    created_at: new Date(Date.UTC(2026, 0, night, 2)).toISOString(),
    engines: Object.fromEntries(
      Object.entries(ndcg).map(([engine, value]) => [engine, { 'retrieval/ground_truth/ndcg@10/average': value }]),
    ),
    ...overrides,
  });
}
