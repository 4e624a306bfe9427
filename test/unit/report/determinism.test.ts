import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { reportInOnePass, reportJson } from '../../../shared/report/aggregate.js';
import { casesJsonl } from '../../../shared/report/cases-jsonl.js';
import { failure, manifest, result, usage } from './factories.js';

const PRECISION = 'retrieval/llm_judged/chunk_relevance/precision';

// Values whose floating-point sum depends on the order of the terms:
// 1e16 + 1 - 1e16 is 0 in this order and 1 in the order 1e16 - 1e16 + 1.
const values = [0.1, 0.2, 0.3, 1e16, 1, -1e16, 0.7];
const results = values.map((value, index) =>
  result(
    `c${index}`,
    {
      dense: { [PRECISION]: value, 'response/lexical/correctness/rating': index % 2 === 0 ? 'yes' : 'no' },
      bm25: { [PRECISION]: value / 3 },
    },
    { correctness: usage({ calls: 1, input_tokens: index }) },
  ),
);
// c0..c6 evaluated, c7 failed, c2 failed before a redrive, c8 missing
const caseIds = [...values.map((_, index) => `c${index}`), 'c7', 'c8'];
const failures = [failure('c7'), failure('c2', 'redriven since')];

describe('determinism', () => {
  it('gives the same bytes for any order of the inputs', () => {
    const expected = reportJson(reportInOnePass({ manifest: manifest(caseIds), results, failures, caseIds: caseIds }));

    fc.assert(
      fc.property(
        fc.shuffledSubarray(results, { minLength: results.length }),
        fc.shuffledSubarray(failures, { minLength: failures.length }),
        fc.shuffledSubarray(caseIds, { minLength: caseIds.length }),
        (shuffledResults, shuffledFailures, shuffledIds) => {
          const report = reportInOnePass({
            manifest: manifest(shuffledIds),
            results: shuffledResults,
            failures: shuffledFailures,
            caseIds: shuffledIds,
          });
          expect(reportJson(report)).toBe(expected);
          expect(casesJsonl(shuffledResults)).toBe(casesJsonl(results));
        },
      ),
      { seed: 7, numRuns: 200 },
    );
  });

  it('sums in case-id order', () => {
    const report = reportInOnePass({ manifest: manifest(caseIds), results: [...results].reverse(), failures, caseIds: caseIds });

    // c0..c6 in order: ((((((0.1 + 0.2) + 0.3) + 1e16) + 1) + -1e16) + 0.7) / 7
    let sum = 0;
    for (const value of values) sum += value;
    expect(report.engines.dense?.[`${PRECISION}/average`]).toBe(sum / 7);
  });

  it('writes keys in sorted order', () => {
    const report = reportInOnePass({ manifest: manifest(caseIds, { engines: ['dense', 'bm25'] }), results, failures, caseIds: caseIds });

    expect(Object.keys(report.engines)).toEqual(['bm25', 'dense']);
    expect(Object.keys(report.engines.dense ?? {})).toEqual([
      'response/lexical/correctness/rating/count',
      'response/lexical/correctness/rating/percentage',
      'response/lexical/correctness/rating/percentage/ci_high',
      'response/lexical/correctness/rating/percentage/ci_low',
      `${PRECISION}/average`,
      `${PRECISION}/average/ci_high`,
      `${PRECISION}/average/ci_low`,
      `${PRECISION}/count`,
    ]);
    expect(reportJson(report).endsWith('}\n')).toBe(true);
  });
});
