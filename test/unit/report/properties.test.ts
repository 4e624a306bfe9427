import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { reportInOnePass, reportJson } from '../../../shared/report/aggregate.js';
import { renderMarkdown } from '../../../shared/report-render/markdown.js';
import { renderSummaryTable } from '../../../shared/report-render/summary-table.js';
import { reportSchema } from '../../../shared/schema/report.js';
import type { CaseFailure, CaseResult } from '../../../shared/schema/run-records.js';
import { failure, manifest, result, usage, type Value } from './factories.js';

// Seeded, so a failure reproduces.
const settings = { seed: 20250102, numRuns: 300 } as const;

const METRIC_NAMES = [
  'retrieval/llm_judged/chunk_relevance/precision',
  'retrieval/llm_judged/chunk_relevance/ratings',
  'retrieval/llm_judged/chunk_relevance/error_message',
  'retrieval/ground_truth/ndcg@10',
  'response/llm_judged/correctness/rating',
  'response/llm_judged/correctness/rationale',
  'response/llm_judged/rubric/rating',
  'constructor',
];

/** Any value a case may hold, the awkward ones included: NaN, infinities, huge numbers, mixed types. */
const valueArbitrary: fc.Arbitrary<Value> = fc.oneof(
  fc.double(),
  fc.constantFrom('yes', 'no'),
  fc.string({ maxLength: 5 }),
  fc.constant(null),
  fc.array(fc.oneof(fc.double(), fc.constantFrom('yes', 'no'), fc.constant(null)), { maxLength: 3 }),
);

const metricsArbitrary = fc.dictionary(fc.constantFrom(...METRIC_NAMES), valueArbitrary, { maxKeys: 6 });

/** How a case of the run ended. */
type Ending = 'result' | 'failure' | 'redriven' | 'none';

const runArbitrary = fc
  .uniqueArray(fc.string({ minLength: 1, maxLength: 6 }), { maxLength: 25 })
  .chain((caseIds) =>
    fc.record({
      caseIds: fc.constant(caseIds),
      endings: fc.array(fc.constantFrom<Ending>('result', 'failure', 'redriven', 'none'), {
        minLength: caseIds.length,
        maxLength: caseIds.length,
      }),
      engines: fc.array(fc.dictionary(fc.constantFrom('bm25', 'dense', '__proto__'), metricsArbitrary, { maxKeys: 3 }), {
        minLength: caseIds.length,
        maxLength: caseIds.length,
      }),
    }),
  )
  .map(({ caseIds, endings, engines }) => {
    const results: CaseResult[] = [];
    const failures: CaseFailure[] = [];
    caseIds.forEach((caseId, index) => {
      const ending = endings[index];
      if (ending === 'result' || ending === 'redriven') {
        results.push(result(caseId, engines[index] ?? {}, { correctness: usage({ calls: 1 }) }));
      }
      if (ending === 'failure' || ending === 'redriven') failures.push(failure(caseId));
    });
    return { caseIds, results, failures };
  });

describe('report properties', () => {
  it('accounts for every case exactly once: evaluated + failed + missing = total, and counts the evaluated cases with a judge failure', () => {
    fc.assert(
      fc.property(runArbitrary, ({ caseIds, results, failures }) => {
        const report = reportInOnePass({ manifest: manifest(caseIds), results, failures, caseIds });

        const { total, evaluated, failed, missing, judge_failed } = report.cases;
        expect(evaluated + failed + missing).toBe(total);
        expect(total).toBe(caseIds.length);
        expect(evaluated).toBe(results.length);
        const wholeFailures = report.failed_cases.filter((entry) => entry.judge === undefined);
        expect(new Set([...report.missing_cases, ...wholeFailures.map((entry) => entry.case_id)]).size).toBe(failed + missing);
        // A judge failure is an evaluated case's: it is counted once however many judges and engines failed on it.
        const judgeFailedIds = new Set(report.failed_cases.flatMap((entry) => (entry.judge === undefined ? [] : [entry.case_id])));
        expect(judgeFailedIds.size).toBe(judge_failed);
        const evaluatedIds = new Set(results.map((result) => result.case_id));
        expect([...judgeFailedIds].every((caseId) => evaluatedIds.has(caseId))).toBe(true);
      }),
      settings,
    );
  });

  it('gives only finite numbers, and a report that parses with its schema', () => {
    fc.assert(
      fc.property(runArbitrary, ({ caseIds, results, failures }) => {
        const report = reportInOnePass({ manifest: manifest(caseIds), results, failures, caseIds });

        for (const statistics of Object.values(report.engines)) {
          for (const value of Object.values(statistics)) expect(Number.isFinite(value)).toBe(true);
        }
        expect(reportSchema.safeParse(report).success).toBe(true);
        expect(JSON.parse(reportJson(report))).toEqual(report);
        expect(renderMarkdown(report)).not.toMatch(/NaN|Infinity/);
        expect(renderSummaryTable(report)).not.toMatch(/NaN|Infinity/);
      }),
      settings,
    );
  });

  it('gives the same bytes for reversed inputs', () => {
    fc.assert(
      fc.property(runArbitrary, ({ caseIds, results, failures }) => {
        const forward = reportInOnePass({ manifest: manifest(caseIds), results, failures, caseIds });
        const backward = reportInOnePass({
          manifest: manifest(caseIds),
          results: [...results].reverse(),
          failures: [...failures].reverse(),
          caseIds: [...caseIds].reverse(),
        });

        expect(reportJson(backward)).toBe(reportJson(forward));
      }),
      settings,
    );
  });
});
