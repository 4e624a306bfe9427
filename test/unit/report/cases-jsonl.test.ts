import { describe, expect, it } from 'vitest';
import { caseLines, caseLineTexts, casesJsonl } from '../../../shared/report/cases-jsonl.js';
import type { CaseResult } from '../../../shared/schema/run-records.js';
import { caseLineSchema } from '../../../shared/schema/report.js';
import { result } from './factories.js';

describe('casesJsonl', () => {
  it('writes one line per case and engine, sorted by case id then engine, metric keys sorted', () => {
    // Prepare: cases and engines out of order
    const results = [
      result('c2', { dense: { 'z/rating': 'yes', 'a/rationale': 'fine' }, bm25: { 'm/precision': 0.5 } }),
      result('c10', { bm25: { 'b/ratings': ['yes', null], 'a/error_message': 'timeout' } }),
    ];

    // Act
    const text = casesJsonl(results);

    // Assess: "c10" < "c2" in code-unit order
    const lines = text.split('\n');
    expect(lines.at(-1)).toBe('');
    expect(lines.slice(0, -1).map((line) => JSON.parse(line) as unknown)).toEqual([
      { case_id: 'c10', request_id: 'request-c10', engine: 'bm25', metrics: { 'a/error_message': 'timeout', 'b/ratings': ['yes', null] } },
      { case_id: 'c2', request_id: 'request-c2', engine: 'bm25', metrics: { 'm/precision': 0.5 } },
      { case_id: 'c2', request_id: 'request-c2', engine: 'dense', metrics: { 'a/rationale': 'fine', 'z/rating': 'yes' } },
    ]);
    expect(lines[0]).toBe(
      '{"case_id":"c10","request_id":"request-c10","engine":"bm25","metrics":{"a/error_message":"timeout","b/ratings":["yes",null]}}',
    );
    expect(lines[2]).toContain('"metrics":{"a/rationale":"fine","z/rating":"yes"}');
  });

  it('gives lines that parse with the cases.jsonl schema', () => {
    const lines = caseLines([result('c1', { bm25: { 'x/rating': 2, 'x/rationale': null } })]);

    for (const line of lines) expect(caseLineSchema.parse(line)).toEqual(line);
  });

  it('is empty for no results', () => {
    expect(casesJsonl([])).toBe('');
  });

  it('writes compact lists straight from their columns, the same bytes as through their objects', () => {
    // Prepare: compact lists with and without scores and grades, odd document ids, a response, a skipped judging; an object-form list; no list
    const ranking = {
      doc_uris: ['d"1', 'd\\2', 'é3', 'd4', 'x\u{1F600}', 'c\u0001', 'lone\ud800'],
      scores: [2.5, null, -0, 1e21, 0.1, 7, 8],
      human_grades: [3, null, 0, null, null, 1, null],
    };
    const results: CaseResult[] = [
      {
        ...result('c1', { bm25: { 'm/precision': 0.5 }, dense: { 'm/precision': 1 } }),
        outputs: { bm25: { ranking }, dense: { ranking: { doc_uris: ['x'], scores: [0.1] }, response: 'an "answer"' } },
      },
      {
        ...result('c2', { bm25: { 'm/precision': 0 } }),
        outputs: { bm25: { retrieved: [{ doc_uri: 'y', rank: 1, score: 3 }], response: 'text' } },
        judging_skipped: 'max_judge_cost',
      },
      {
        ...result('c3', { bm25: { 'm/precision': 0.25 } }),
        outputs: { bm25: { ranking: { doc_uris: [], scores: [] } } },
        judging_skipped: 'max_judge_cost',
      },
      result('c4', { bm25: { 'm/precision': 0.75 } }),
    ];

    // Act
    const text = [...caseLineTexts(results)].join('');

    // Assess
    expect(text).toBe(casesJsonl(results));
    expect(text.split('\n')[0]).toContain(
      '"retrieved":[{"doc_uri":"d\\"1","rank":1,"score":2.5,"human_grade":3},{"doc_uri":"d\\\\2","rank":2},',
    );
  });

  it('gives the page lines without their ranked lists', () => {
    // Prepare
    const results: CaseResult[] = [
      {
        ...result('c1', { bm25: { 'm/precision': 0.5 } }),
        outputs: { bm25: { ranking: { doc_uris: ['a'], scores: [1] }, response: 'r' } },
      },
    ];

    // Act / Assess
    expect(caseLines(results, false)).toEqual(caseLines(results).map(({ retrieved: _retrieved, ...line }) => line));
  });
});
