import { alignedTable } from './text-table.js';
import { renderLeaderboardsText } from './leaderboard-text.js';
import { SAMPLE_CHECK_LEVEL } from './corrected-table.js';
import type { ResampledInterval } from '../statistics/bootstrap-interval.js';
import type { AgreementReport } from '../schema/agreement.js';

/**
 * The terminal form of an agreement report: the statistics with their 95%
 * intervals, the reason for every statistic that has no value, the confusion
 * matrix (rows: human grade, columns: judge grade), and with runs each run's
 * value under both qrels, the corrected estimates and, with three runs or
 * more, the leaderboards.
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
  const reasons = Object.entries(report.reasons).filter(
    ([path]) => !(path.startsWith('intervals.') && reasonOfStatistic(report, path) !== undefined),
  );
  if (reasons.length > 0) sections.push(reasons.map(([path, reason]) => `${path}: n/a, ${reason}`).join('\n'));
  sections.push(confusionTable(report));
  if (systems !== undefined) {
    const names = Object.keys(systems.human);
    sections.push(
      alignedTable(
        ['run', `${systems.measure} human`, `${systems.measure} judge`],
        names.map((name) => [name, fixed(systems.human[name]), fixed(systems.judge[name])]),
      ),
    );
  }
  const corrected = [
    ...(report.estimates ?? []).map((estimate) => ({ ...estimate, name: estimate.run })),
    ...(report.differences ?? []).map((difference) => ({ ...difference, name: `${difference.runs[0]} - ${difference.runs[1]}` })),
  ];
  if (corrected.length > 0) {
    // Named as report.md names them: the measure on the judge's labels, on the human labels, and the two combined.
    const header = ['run', 'measure', 'topics', 'labelled', "judge's labels", 'human labels', 'corrected', 'weight'];
    sections.push(
      `corrected by the human labels of the labelled topics (prediction-powered, PPI++; intervals for the mean over the judge-scored topics):\n${alignedTable(
        header,
        corrected.map((one) => [
          one.name,
          one.measure,
          String(one.cases),
          String(one.labelled),
          fixed(one.judge_only),
          ...correctedCells(one),
        ]),
      )}`,
    );
  }
  // The check of the sample, per run: the judge's values of the labelled topics against the rest.
  const unlike = (report.estimates ?? []).filter(
    (estimate) => estimate.sample_check !== undefined && estimate.sample_check.p_value < SAMPLE_CHECK_LEVEL,
  );
  if (unlike.length > 0) {
    sections.push(
      unlike
        .map((estimate) => {
          const check = estimate.sample_check as NonNullable<typeof estimate.sample_check>;
          const apart = check.labelled_judge_mean - check.unlabelled_judge_mean;
          return `${estimate.run} ${estimate.measure}: the labelled topics do not look like a random sample: the judge scores them ${Math.abs(apart).toFixed(4)} ${apart > 0 ? 'higher' : 'lower'} than the rest (Welch p ${check.p_value < 0.0001 ? '< 0.0001' : check.p_value.toFixed(4)}); the intervals assume one`;
        })
        .join('\n'),
    );
  }
  const leaderboards = report.leaderboards ?? [];
  if (leaderboards.length > 0) sections.push(renderLeaderboardsText(leaderboards, 'run', 'leaderboard').trimEnd());
  return `${sections.join('\n\n')}\n`;
}

function correctedCells(estimate: {
  human_only?: { mean: number; low: number; high: number };
  corrected?: { mean: number; low: number; high: number; weight: number };
  reason?: string;
}): string[] {
  const { human_only: human, corrected } = estimate;
  if (human === undefined || corrected === undefined) return [estimate.reason ?? 'n/a', '', ''];
  const interval = (value: { mean: number; low: number; high: number }) =>
    `${fixed(value.mean)} [${fixed(value.low)}, ${fixed(value.high)}]`;
  return [interval(human), interval(corrected), corrected.weight.toFixed(2)];
}

function reasonOfStatistic(report: AgreementReport, intervalPath: string): string | undefined {
  const statistic = intervalPath.slice('intervals.'.length);
  const path = statistic === 'binary_kappa' ? 'binary.kappa' : statistic === 'kendall_tau' ? 'systems.kendall_tau' : statistic;
  return report.reasons[path];
}

function confusionTable(report: AgreementReport): string {
  const grades = report.categories.map(String);
  const body = grades.map((humanGrade) => [
    humanGrade,
    ...grades.map((judgeGrade) => String(report.confusion[humanGrade]?.[judgeGrade] ?? 0)),
  ]);
  return alignedTable(['human \\ judge', ...grades], body);
}

function row(name: string, value: number | null, interval?: ResampledInterval | null): string[] {
  return [name, value === null ? 'n/a' : fixed(value), interval ? fixed(interval.low) : '', interval ? fixed(interval.high) : ''];
}

function fixed(value: number | undefined): string {
  return value === undefined ? 'n/a' : value.toFixed(4);
}
