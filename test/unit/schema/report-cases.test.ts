import { describe, expect, it } from 'vitest';
import { reportInOnePass } from '../../../shared/report/aggregate.js';
import { reportSchema, type FailedCase, type Report } from '../../../shared/schema/report.js';
import { failure, manifest, result } from '../report/factories.js';

const CORRECTNESS_ERROR = 'response/llm_judged/correctness/error_message';

/** A report of three cases: c1 failed as a whole, c2 evaluated with correctness in error on bm25, c3 evaluated cleanly. */
function reportWithBothKinds(): Report {
  const ids = ['c1', 'c2', 'c3'];
  const results = [result('c2', { bm25: { [CORRECTNESS_ERROR]: 'not JSON' } }), result('c3', { bm25: { [CORRECTNESS_ERROR]: null } })];
  return reportInOnePass({ manifest: manifest(ids), results, failures: [failure('c1', 'throttled')], caseIds: ids });
}

const judgeEntry: FailedCase = { case_id: 'c3', error: 'not JSON', judge: 'safety', engines: ['bm25'] };

describe('report.json cases and failed_cases', () => {
  it('parses a report with a whole failed case and a judge failure', () => {
    // Prepare
    const report = reportWithBothKinds();

    // Act
    const parsed = reportSchema.safeParse(report);

    // Assess
    expect(parsed.success).toBe(true);
    expect(report.cases).toEqual({ total: 3, evaluated: 2, failed: 1, missing: 0, judge_failed: 1 });
    expect(report.failed_cases).toEqual([
      { case_id: 'c1', error: 'throttled' },
      { case_id: 'c2', error: 'not JSON', judge: 'correctness', engines: ['bm25'] },
    ]);
  });

  it('parses a report written before judge_failed was counted: no such key, no entry with a judge', () => {
    // Prepare: what an older reducer wrote
    const { judge_failed: _counted, ...cases } = reportWithBothKinds().cases;
    const older = { ...reportWithBothKinds(), cases, failed_cases: [{ case_id: 'c1', error: 'throttled' }] };

    // Act / Assess
    expect(reportSchema.safeParse(older).success).toBe(true);
  });

  it.each<[string, (report: Report) => Report, string]>([
    [
      'a whole failed case too many',
      (report) => ({ ...report, failed_cases: [...report.failed_cases, { case_id: 'c3', error: 'timed out' }] }),
      'Expected one failed_cases entry without a judge per failed case',
    ],
    [
      'a judge failure of a case judge_failed does not count',
      (report) => ({ ...report, failed_cases: [...report.failed_cases, judgeEntry] }),
      'Expected the failed_cases entries with a judge to name as many cases as cases.judge_failed',
    ],
    [
      'judge_failed without its entries',
      (report) => ({ ...report, failed_cases: report.failed_cases.filter((entry) => entry.judge === undefined) }),
      'Expected the failed_cases entries with a judge to name as many cases as cases.judge_failed',
    ],
    [
      'more cases lacking a judgment than evaluated',
      (report) => ({
        ...report,
        cases: { ...report.cases, judge_failed: 3 },
        failed_cases: [...report.failed_cases, judgeEntry, { ...judgeEntry, case_id: 'c4' }],
      }),
      'Expected cases.judge_failed to be at most cases.evaluated',
    ],
  ])('refuses %s', (_described, change, message) => {
    // Prepare
    const report = change(reportWithBothKinds());

    // Act
    const parsed = reportSchema.safeParse(report);

    // Assess
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((issue) => issue.message).join('\n')).toContain(message);
  });

  it('counts a case once however many judges failed on it', () => {
    // Prepare: c2's correctness and safety both in error
    const report = reportWithBothKinds();
    const twice = { ...report, failed_cases: [...report.failed_cases, { ...judgeEntry, case_id: 'c2' }] };

    // Act / Assess
    expect(reportSchema.safeParse(twice).success).toBe(true);
  });
});
