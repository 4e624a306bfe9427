import { describe, expect, it } from 'vitest';
import { historyRowOf, isHistoryStatistic } from '../../../shared/history/history-row.js';
import { runsTable } from '../../../shared/history/html/runs-table.js';
import { agreement, report } from './factories.js';

describe('a run’s history row', () => {
  it('keeps each engine’s headline statistics, their intervals, latency and error counts, with report.json’s values, and leaves judge details out', () => {
    // Prepare
    const kept = {
      'retrieval/ground_truth/ndcg@10/average': 0.4123,
      'retrieval/ground_truth/ndcg@10/average/ci_low': 0.38,
      'retrieval/ground_truth/ndcg@10/average/ci_high': 0.45,
      'response/llm_judged/correctness/rating/percentage': 0.75,
      'retrieval/llm_judged/chunk_relevance/precision/average': 0.6,
      'thresholds/pass/average': 0.9,
      'engine/latency_ms/p50': 120,
      'engine/latency_ms/p95': 480,
      'engine/latency_ms/max': 900,
      'engine/error_count': 2,
      'response/llm_judged/correctness/error_count': 1,
    };
    const left = {
      'retrieval/ground_truth/ndcg@10/count': 10,
      'response/llm_judged/groundedness/response_tokens/average': 41.5,
      'response/llm_judged/groundedness/response_tokens/average/ci_low': 30,
      'engine/latency_ms/count': 10,
      'engine/attempts/total': 12,
    };

    // Act
    const row = historyRowOf(report({ engines: { bm25: { ...kept, ...left } } }));

    // Assess
    expect(row.engines).toEqual({ bm25: kept });
    expect(Object.keys(left).filter(isHistoryStatistic)).toEqual([]);
  });

  it('keeps the run’s facts, its comparison’s regressions and each judge’s agreement without the confusion table', () => {
    // Prepare
    const regressions = [{ engine: 'bm25', metric: 'retrieval/ground_truth/ndcg@10', delta: -0.12, p_value: 0.002 }];
    const source = report({
      comparison: { baseline_run_id: 'r-00000000000000aa', baseline_kind: 'baseline', regressions, engines: {} },
      agreement: { graded_relevance: agreement({ reasons: { cohen_kappa: 'one grade only' } }) },
    });

    // Act
    const row = historyRowOf(source);

    // Assess
    expect(row).toMatchObject({
      run_id: source.run_id,
      created_at: source.created_at,
      dataset: source.dataset,
      config_hash: source.config_hash,
      judge: source.judge,
      cases: source.cases,
    });
    expect(row.compared_with).toEqual({ run_id: 'r-00000000000000aa', kind: 'baseline' });
    expect(row.regressions).toEqual(regressions);
    const { confusion: _confusion, reasons: _reasons, ...summary } = agreement();
    expect(row.agreement).toEqual({ graded_relevance: summary });
  });

  it('keeps how the comparison adjusted its p-values, and its runs table shows the adjusted p-value the gate decided on', () => {
    // Prepare
    const regressions = [
      { engine: 'bm25', metric: 'retrieval/ground_truth/ndcg@10', delta: -0.12, p_value: 0.002, adjusted_p_value: 0.028 },
    ];
    const adjustment = { method: 'holm' as const, family: 'engine_metrics' as const, tests: 14, alpha: 0.05 };
    const source = report({
      comparison: { baseline_run_id: 'r-00000000000000aa', baseline_kind: 'baseline', adjustment, regressions, engines: {} },
    });

    // Act
    const row = historyRowOf(source);
    const table = runsTable([{ ...row, cases: { ...row.cases, judge_failed: 2 } }], { report: (run) => `${run}/report.html` });

    // Assess
    expect(row.adjustment).toEqual(adjustment);
    // Every case's end is a column: failed, missing, and lacking a judgment.
    expect(table).toContain(
      '<th scope="col" class="number">missing</th><th scope="col" class="number" title="cases a judge failed for good: its metrics average fewer cases">lacking a judgment</th>',
    );
    expect(table).toMatch(
      /<td class="number">0<\/td><td class="number">0<\/td><td class="number">2<\/td><td class="number" data-value="1">/,
    );
    expect(table).toContain('−0.1200 (p 0.0020, adjusted 0.0280 (Holm&#39;s method over 14 tests))');
  });

  it('of a run compared with nothing has no regressions and compared_with null', () => {
    const row = historyRowOf(report());

    expect(row.compared_with).toBeNull();
    expect(row.regressions).toEqual([]);
    expect(row.adjustment).toBeUndefined();
    expect(row.agreement).toEqual({});
  });
});
