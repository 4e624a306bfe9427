import { alignedTable } from './text-table.js';
import type { ResampledInterval } from '../statistics/bootstrap-interval.js';
import type { AgreementReport } from '../agreement/agreement-report.js';

/**
 * The terminal form of an agreement report: the statistics with their 95%
 * intervals, the reason for every statistic that has no value, the confusion
 * matrix (rows: human grade, columns: judge grade), and with runs each run's
 * value under both qrels.
 */
export function renderAgreementText(report: AgreementReport): string {
  const { intervals, binary, systems } = report;
  const rows: string[][] = [
    row('exact agreement', report.exact_agreement),
    row("Cohen's kappa", report.cohen_kappa, intervals.cohen_kappa),
    row('weighted kappa (quadratic)', report.weighted_kappa, intervals.weighted_kappa),
    row(`binary kappa (grade >= ${binary.level})`, binary.kappa, intervals.binary_kappa),
    row('binary agreement', binary.agreement),
    row('binary precision', binary.precision),
    row('binary recall', binary.recall),
  ];
  if (systems !== undefined) {
    rows.push(row(`Kendall's tau-b (${systems.measure})`, systems.kendall_tau, intervals.kendall_tau ?? null));
    rows.push(row(`Spearman's rho (${systems.measure})`, systems.spearman_rho));
  }
  const sections = [
    `pairs labelled in both: ${report.pairs} (only human: ${report.human_only}, only judge: ${report.judge_only})` +
      (systems === undefined ? '' : `; systems: ${systems.n}`),
    alignedTable(['statistic', 'value', '95% low', '95% high'], rows),
  ];
  // An interval is null whenever its statistic is: its reason is worth printing only when the statistic has a value.
  const reasons = Object.entries(report.reasons).filter(([path]) => !(path.startsWith('intervals.') && reasonOfStatistic(report, path) !== undefined));
  if (reasons.length > 0) sections.push(reasons.map(([path, reason]) => `${path}: n/a, ${reason}`).join('\n'));
  sections.push(confusionTable(report));
  if (systems !== undefined) {
    const names = Object.keys(systems.human);
    sections.push(alignedTable(['run', `${systems.measure} human`, `${systems.measure} judge`], names.map((name) => [name, fixed(systems.human[name]), fixed(systems.judge[name])])));
  }
  return `${sections.join('\n\n')}\n`;
}

function reasonOfStatistic(report: AgreementReport, intervalPath: string): string | undefined {
  const statistic = intervalPath.slice('intervals.'.length);
  const path = statistic === 'binary_kappa' ? 'binary.kappa' : statistic === 'kendall_tau' ? 'systems.kendall_tau' : statistic;
  return report.reasons[path];
}

function confusionTable(report: AgreementReport): string {
  const grades = report.categories.map(String);
  const body = grades.map((humanGrade) => [humanGrade, ...grades.map((judgeGrade) => String(report.confusion[humanGrade]?.[judgeGrade] ?? 0))]);
  return alignedTable(['human \\ judge', ...grades], body);
}

function row(name: string, value: number | null, interval?: ResampledInterval | null): string[] {
  return [name, value === null ? 'n/a' : fixed(value), interval ? fixed(interval.low) : '', interval ? fixed(interval.high) : ''];
}

function fixed(value: number | undefined): string {
  return value === undefined ? 'n/a' : value.toFixed(4);
}
