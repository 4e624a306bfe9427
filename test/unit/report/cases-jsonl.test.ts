import { describe, expect, it } from 'vitest';
import { caseLines, casesJsonl } from '../../../shared/report/cases-jsonl.js';
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
});
