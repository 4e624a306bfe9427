import { describe, expect, it } from 'vitest';
import { parseCasesJsonl, parseReportJson } from '../../../shared/compare/run-files.js';
import { reportJson } from '../../../shared/report/aggregate.js';
import { oneMetric, runFiles } from './factories.js';

const METRIC = 'retrieval/ground_truth/recall@5';
const files = runFiles('run-a', oneMetric('bm25', METRIC, [0.5, 1]));
const caseLine = (requestId: string, engine = 'bm25'): string =>
  JSON.stringify({ case_id: `c-${requestId}`, request_id: requestId, engine, metrics: { [METRIC]: 0.5 } });

describe('parseReportJson', () => {
  it('gives the report back from its text', () => {
    expect(parseReportJson(reportJson(files.report))).toEqual({ ok: true, value: files.report });
  });

  it.each<[string, string, RegExp]>([
    ['text that is not JSON', '{"run_id": ', /^not valid JSON \(/],
    ['a missing field', JSON.stringify({ ...files.report, suite: undefined }), /^field "suite": is missing$/],
    [
      'a statistic that is not a number',
      JSON.stringify({ ...files.report, engines: { bm25: { 'x/average': 'high' } } }),
      /^field "engines\.bm25\.x\/average": /,
    ],
    ['several problems', JSON.stringify({ run_id: 1 }), /\(and \d+ more problems\)$/],
  ])('says what is wrong with %s', (_described, text, message) => {
    const parsed = parseReportJson(text);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) {
      expect(parsed.error.line).toBeUndefined();
      expect(parsed.error.message).toMatch(message);
    }
  });
});

describe('parseCasesJsonl', () => {
  it('reads every line and skips blank ones', () => {
    const parsed = parseCasesJsonl(`${caseLine('q1')}\n\n${caseLine('q2')}\n`);

    expect(parsed.ok && parsed.value.map((line) => line.request_id)).toEqual(['q1', 'q2']);
  });

  it('gives no line for an empty file', () => {
    expect(parseCasesJsonl('')).toEqual({ ok: true, value: [] });
  });

  it.each<[string, string, number, RegExp]>([
    ['a line that is not JSON', `${caseLine('q1')}\n{oops\n`, 2, /^not valid JSON/],
    [
      'a line without engine',
      `${caseLine('q1')}\n${JSON.stringify({ case_id: 'c', request_id: 'q2', metrics: {} })}\n`,
      2,
      /^field "engine": /,
    ],
    [
      'a second line for an engine and request_id',
      `${caseLine('q1')}\n${caseLine('q2')}\n${caseLine('q1')}\n`,
      3,
      /^engine "bm25" already has request_id "q1" on line 1$/,
    ],
  ])('reports %s with its line number', (_described, text, line, message) => {
    const parsed = parseCasesJsonl(text);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) {
      expect(parsed.error.line).toBe(line);
      expect(parsed.error.message).toMatch(message);
    }
  });

  it('accepts the same request_id for two engines', () => {
    expect(parseCasesJsonl(`${caseLine('q1', 'bm25')}\n${caseLine('q1', 'dense')}\n`).ok).toBe(true);
  });
});
