import type { CaseLine, Report } from '../schema/report.js';
import { agreementSection, correctedSection, warningsSection } from './html/agreement-table.js';
import { canarySection } from './html/canary-section.js';
import { caseListsSection } from './html/case-lists.js';
import { chartsSection } from './html/charts.js';
import { comparisonSection, runComparisonSchema, type RunComparison } from './html/comparison.js';
import { judgeRankingSection } from './html/judge-ranking.js';
import { leaderboardSection } from './html/leaderboard.js';
import { headerSection } from './html/header.js';
import { judgeUsageSection } from './html/judge-usage-table.js';
import { keyStatistics } from './html/key-statistics.js';
import { metricTableSection } from './html/metric-table.js';
import { perQuerySection, type PerQueryExcerpt } from './html/per-query-table.js';
import { selfContainedPage } from './html/page.js';
import { STYLES } from './html/styles.js';

export { runComparisonSchema, type RunComparison };

export interface HtmlOptions {
  /** This run against a baseline; the page has a comparison section only when it is given. */
  readonly comparison?: RunComparison;
  /** Set when `cases` is an excerpt of a large run (see light-report-cases.ts), to say so on the page. */
  readonly excerpt?: PerQueryExcerpt;
}

/**
 * `report.html`: one self-contained page for a laptop screen and for print.
 * Header (suite, run, dataset, judge, case counts), the report's warnings, the engine × key-metric
 * table with 95% intervals when the report has them, one bar chart per key
 * metric (inline SVG), a sortable and filterable per-query table (of every
 * case, or for a large run an excerpt that says so), the judges' agreement
 * with the human labels, judge usage with the cost estimate at the config's judge.prices when it gives them, failed and missing cases, and, with a comparison,
 * the deltas against the baseline; with three engines or more, the leaderboards.
 *
 * Nothing is loaded from anywhere: styles, charts and the one script are
 * inline, and the page's Content-Security-Policy allows that style sheet and
 * that script only (by hash), no fetch, image, font or frame. Every text from
 * the data is HTML-escaped. The output is a pure function of the inputs:
 * no clock, no randomness, a fixed order, so the same inputs give the same bytes.
 */
export function renderHtml(report: Report, cases: readonly CaseLine[], options: HtmlOptions = {}): string {
  const comparison = options.comparison === undefined ? undefined : runComparisonSchema.parse(options.comparison);
  const keys = keyStatistics(report);
  const sections: [id: string, title: string, html: string][] = [
    ['warnings', 'Warnings', warningsSection(report)],
    ['metrics', 'Key metrics', metricTableSection(report, keys)],
    ['charts', 'Charts', chartsSection(report, keys)],
    ['comparison', 'Against the baseline', comparison === undefined ? '' : comparisonSection(comparison)],
    ['leaderboard', 'Leaderboard', leaderboardSection(report)],
    ['per-query', 'Per query', perQuerySection(cases, keys, options.excerpt)],
    ['agreement', 'Agreement with the human labels', agreementSection(report)],
    ['canaries', 'Judge canaries', canarySection(report)],
    ['corrected', 'Ground truth corrected by the judges', correctedSection(report)],
    ['judge-ranking', 'Choosing a judge', judgeRankingSection(report)],
    ['judges', 'Judge usage', judgeUsageSection(report)],
    ['cases', 'Failed and missing cases', caseListsSection(report)],
  ];
  const shown = sections.filter(([, , html]) => html !== '');
  const contents = `<nav aria-label="Sections"><ul>${shown.map(([id, title]) => `<li><a href="#${id}">${title}</a></li>`).join('')}</ul></nav>`;
  return selfContainedPage({
    title: `${report.suite}: run ${report.run_id} · assay report`,
    styles: STYLES,
    body: [headerSection(report), contents, ...shown.map(([, , html]) => html)],
  });
}
