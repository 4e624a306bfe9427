import { describe, expect, it } from 'vitest';
import { reportInOnePass } from '../../../shared/report/aggregate.js';
import { renderSummaryTable } from '../../../shared/report-render/summary-table.js';
import { manifest, result } from './factories.js';

describe('renderSummaryTable', () => {
  it('puts engines in columns and key metrics in rows, aligned', () => {
    // precision: bm25 (0.5 + 1) / 2 = 0.75, dense only c1 = 0.25; rating: bm25 1 yes of 2 = 50%, dense 1 of 1,
    // which safety also reports as its average (0.5000, 1.0000). dense has c1 alone: its values are over all its cases, no n
    const ids = ['c1', 'c2'];
    const results = [
      result('c1', {
        bm25: { 'retrieval/ground_truth/precision@5': 0.5, 'response/llm_judged/safety/rating': 'yes' },
        dense: { 'retrieval/ground_truth/precision@5': 0.25, 'response/llm_judged/safety/rating': 'yes' },
      }),
      result('c2', { bm25: { 'retrieval/ground_truth/precision@5': 1, 'response/llm_judged/safety/rating': 'no' } }),
    ];

    const table = renderSummaryTable(reportInOnePass({ manifest: manifest(ids), results, failures: [], caseIds: ids }));

    expect(table).toBe(
      [
        'metric                                          bm25   dense',
        '--------------------------------------------  ------  ------',
        'response/llm_judged/safety/rating/average     0.5000  1.0000',
        'response/llm_judged/safety/rating/percentage   50.0%  100.0%',
        'retrieval/ground_truth/precision@5/average    0.7500  0.2500',
        '',
      ].join('\n'),
    );
  });

  it("shows the n of a value over fewer of the engine's cases: a judge that failed on some, a metric of the labelled ones", () => {
    // Prepare: bm25 has three cases; safety answered on c1 (yes) and c2 (no), its judgment on c3 ended in error;
    // precision is labelled on c1 and c2 only. dense has c1 alone, rated and labelled.
    const ids = ['c1', 'c2', 'c3'];
    const safety = (rating: 'yes' | 'no' | null, error: string | null) => ({
      'response/llm_judged/safety/rating': rating,
      'response/llm_judged/safety/error_message': error,
    });
    const results = [
      result('c1', {
        bm25: { 'retrieval/ground_truth/precision@5': 0.5, ...safety('yes', null) },
        dense: { 'retrieval/ground_truth/precision@5': 0.25, ...safety('yes', null) },
      }),
      result('c2', { bm25: { 'retrieval/ground_truth/precision@5': 1, ...safety('no', null) } }),
      result('c3', { bm25: safety(null, 'the judge answered no JSON') }),
    ];

    // Act
    const table = renderSummaryTable(reportInOnePass({ manifest: manifest(ids), results, failures: [], caseIds: ids }));

    // Assess: bm25's case count is safety's 2 rated + 1 in error = 3; every value of it is over 2
    expect(table).toBe(
      [
        'metric                                                bm25   dense',
        '--------------------------------------------  ------------  ------',
        'response/llm_judged/safety/rating/average     0.5000 (n=2)  1.0000',
        'response/llm_judged/safety/rating/percentage   50.0% (n=2)  100.0%',
        'retrieval/ground_truth/precision@5/average    0.7500 (n=2)  0.2500',
        '',
      ].join('\n'),
    );
  });

  it('leaves judge details (token counts and the like) out of the headline table', () => {
    const ids = ['c1'];
    const results = [
      result('c1', { bm25: { 'response/lexical/groundedness/response_tokens': 8, 'response/lexical/groundedness/rating': 'yes' } }),
    ];
    const table = renderSummaryTable(reportInOnePass({ manifest: manifest(ids), results, failures: [], caseIds: ids }));
    expect(table).toContain('response/lexical/groundedness/rating/percentage');
    expect(table).not.toContain('response_tokens');
  });

  it('shows control characters of an engine name escaped, so the name cannot drive the terminal', () => {
    // Prepare: a dataset's engine field is free text
    const ids = ['c1'];
    const results = [result('c1', { '\u001b]0;owned\u0007bm25\u001b[2J': { 'retrieval/ground_truth/precision@5': 1 } })];

    // Act
    const table = renderSummaryTable(reportInOnePass({ manifest: manifest(ids), results, failures: [], caseIds: ids }));

    // Assess
    expect(table).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
    expect(table.split('\n')[0]).toMatch(/^metric +\\x1b\]0;owned\\x07bm25\\x1b\[2J/);
  });

  it('says so when there is no metric', () => {
    const ids = ['c1'];

    const report = reportInOnePass({ manifest: manifest(ids), results: [], failures: [], caseIds: ids });

    expect(renderSummaryTable(report)).toBe('No metric to show.\n');
  });
});
