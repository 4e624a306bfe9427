import { describe, expect, it } from 'vitest';
import { compareRuns } from '../../../shared/compare/compare-runs.js';
import { renderComparisonTable } from '../../../shared/compare/comparison-table.js';
import { CORRECTNESS, oneMetric, runFiles } from './factories.js';

const METRIC = 'retrieval/ground_truth/precision@5';

describe('renderComparisonTable', () => {
  it('prints one table per engine with 4 decimals, signed deltas and W/L/T', () => {
    // Prepare: bm25 as in the hand-worked comparison (a 0.3125, b 0.5625, p 0.25); dense with a yes/no rating
    // rate that drops from 1 to 0 on 6 cases (exact p = 2/64 = 0.03125 < 0.05) and an A of 0. Holm over the 3 tests:
    // 3 × 0.03125 = 0.0938, not significant once adjusted; 2 × 0.25 = 0.5; 1. Without adjustment the drop is significant.
    const a = runFiles('run-a', [
      ...oneMetric('bm25', METRIC, [0.25, 0.5, 0.125, 0.375]),
      ...oneMetric('dense', CORRECTNESS, ['yes', 'yes', 'yes', 'yes', 'yes', 'yes']).map((spec) => ({
        ...spec,
        requestId: `d${spec.requestId}`,
      })),
      ...oneMetric('dense', METRIC, [0, 0]).map((spec) => ({ ...spec, requestId: `e${spec.requestId}` })),
    ]);
    const b = runFiles('run-b', [
      ...oneMetric('bm25', METRIC, [0.75, 0.625, 0.5, 0.375]),
      ...oneMetric('dense', CORRECTNESS, ['no', 'no', 'no', 'no', 'no', 'no']).map((spec) => ({
        ...spec,
        requestId: `d${spec.requestId}`,
      })),
      ...oneMetric('dense', METRIC, [0.5, 0]).map((spec) => ({ ...spec, requestId: `e${spec.requestId}` })),
    ]);

    // Act
    const text = renderComparisonTable(compareRuns(a, b));
    const unadjusted = renderComparisonTable(compareRuns(a, b, { adjustment: 'none' }));

    // Assess
    expect(text).toBe(
      [
        'engine bm25',
        'metric                                   A       B    delta     rel.       p  adj. p  sig  n  W/L/T',
        '----------------------------------  ------  ------  -------  -------  ------  ------  ---  -  -----',
        'retrieval/ground_truth/precision@5  0.3125  0.5625  +0.2500  +0.8000  0.2500  0.5000       4  3/0/1',
        '',
        'engine dense',
        'metric                                       A       B    delta     rel.       p  adj. p  sig  n  W/L/T',
        '--------------------------------------  ------  ------  -------  -------  ------  ------  ---  -  -----',
        'response/llm_judged/correctness/rating  1.0000  0.0000  -1.0000  -1.0000  0.0313  0.0938       6  0/6/0',
        'retrieval/ground_truth/precision@5      0.0000  0.2500  +0.2500      n/a  1.0000  1.0000       2  1/0/1',
        '',
        "p-values adjusted by Holm's method across the 3 tests of this comparison (each engine × metric); significant: adjusted p < 0.05.",
        '',
      ].join('\n'),
    );
    expect(unadjusted).toContain('response/llm_judged/correctness/rating  1.0000  0.0000  -1.0000  -1.0000  0.0313  0.0313    ✓  6  0/6/0');
    expect(unadjusted).toContain(
      'p-values not adjusted across the 3 tests of this comparison (each engine × metric); significant: p < 0.05.',
    );
  });

  it('says so when no metric could be paired', () => {
    expect(renderComparisonTable({ adjustment: { method: 'holm', family: 'engine_metrics', tests: 0, alpha: 0.05 }, engines: {} })).toMatch(
      /^No metric has values for the same cases in both runs/,
    );
  });

  it('shows control characters of engine and metric names escaped', () => {
    // Prepare
    const engine = 'bm25\u001b]8;;http://x\u0007';
    const a = runFiles('run-a', oneMetric(engine, METRIC, [0.25, 0.5]));
    const b = runFiles('run-b', oneMetric(engine, METRIC, [0.75, 0.5]));

    // Act
    const text = renderComparisonTable(compareRuns(a, b));

    // Assess
    expect(text).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
    expect(text.split('\n')[0]).toBe('engine bm25\\x1b]8;;http://x\\x07');
  });
});
