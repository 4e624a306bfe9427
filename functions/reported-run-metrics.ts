import type { Report } from '../shared/schema/report.js';

/**
 * The counts the reducer publishes for a reported run, by Powertools metric
 * name. Every one but RunsReported has an alarm on it
 * (infra/constructs/alarms.ts): metrics significantly worse than the
 * baseline, cases missing at the deadline, cases reported without some
 * judge's judgment (the judge failed them for good: their judge metrics are
 * averaged over fewer cases, as the report says), and judges whose canary
 * verdicts changed since the run compared with (their metrics' drops were
 * put down to them).
 */
export function reportedRunMetrics(report: Report): readonly (readonly [name: string, count: number])[] {
  return [
    ['RunsReported', 1],
    ['Regressions', report.comparison?.regressions.length ?? 0],
    ['MissingCases', report.cases.missing],
    ['CasesLackingJudgment', report.cases.judge_failed ?? 0],
    ['JudgesChanged', report.canaries?.changed_judges.length ?? 0],
  ];
}
