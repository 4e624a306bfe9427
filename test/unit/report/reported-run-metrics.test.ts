import { describe, expect, it } from 'vitest';
import { reportedRunMetrics } from '../../../functions/reported-run-metrics.js';
import { reportInOnePass } from '../../../shared/report/aggregate.js';
import type { Report } from '../../../shared/schema/report.js';
import { failure, manifest, result } from './factories.js';

const NDCG = 'retrieval/ground_truth/ndcg@10';
const CORRECTNESS = 'response/llm_judged/correctness';

/** Four cases: two evaluated, one of them lacking the correctness judge's judgment, one failed, one missing. */
function reported(): Report {
  const ids = ['c1', 'c2', 'c3', 'c4'];
  return reportInOnePass({
    manifest: manifest(ids),
    results: [
      result('c1', { bm25: { [NDCG]: 0.5, [`${CORRECTNESS}/rating`]: 'yes', [`${CORRECTNESS}/error_message`]: null } }),
      result('c2', { bm25: { [NDCG]: 1, [`${CORRECTNESS}/rating`]: null, [`${CORRECTNESS}/error_message`]: 'bm25: not JSON' } }),
    ],
    failures: [failure('c3', 'judge timed out')],
    caseIds: ids,
  });
}

describe("the reducer's metrics of a reported run", () => {
  it('counts the run, its regressions, its missing cases, its cases lacking a judgment and its changed judges', () => {
    // Arrange
    const base = reported();
    const report: Report = {
      ...base,
      comparison: {
        baseline_run_id: 'r-0000000000000001',
        baseline_kind: 'baseline',
        regressions: [{ engine: 'bm25', metric: NDCG, delta: -0.3, p_value: 0.01 }],
        engines: {},
      },
      canaries: {
        dataset: 'canaries/faq/canary.jsonl',
        cases: { total: 4, evaluated: 4, failed: 0, missing: 0 },
        input_errors: 0,
        alpha: 0.05,
        compared_with: 'r-0000000000000001',
        judges: {},
        changed_judges: ['chunk_relevance', 'correctness'],
        attributed_regressions: [],
        usage: {},
        summary: [],
      },
    };

    // Act
    const metrics = Object.fromEntries(reportedRunMetrics(report));

    // Assess
    expect(base.cases).toMatchObject({ missing: 1, judge_failed: 1 });
    expect(metrics).toEqual({ RunsReported: 1, Regressions: 1, MissingCases: 1, CasesLackingJudgment: 1, JudgesChanged: 2 });
  });

  it('publishes zeros, not nothing, for a run without a comparison or canaries, so each alarm sees the night', () => {
    // Act
    const metrics = Object.fromEntries(reportedRunMetrics({ ...reported(), comparison: undefined, canaries: undefined }));

    // Assess
    expect(metrics).toMatchObject({ Regressions: 0, JudgesChanged: 0 });
  });
});
