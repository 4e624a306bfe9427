import { compareText } from '../../report/ordering.js';
import { escapeHtml, isolated, isolatedText } from '../../report-render/html/escape.js';
import type { HistoryRow } from '../history-row.js';
import type { HistoryLinks } from './history-links.js';
import { readableTime } from './runs-table.js';
import { trendChart, type TrendSeries } from './trend-chart.js';

/**
 * The judge canaries of a suite's history: per judge, the share of its
 * canary verdicts that changed against the run each was compared with, and
 * its agreement with the canary's human labels (Cohen's kappa), a point
 * ringed on a run that flagged the judge changed; then the runs that did,
 * newest first, each with what its report says. Empty when no charted run
 * judged a canary set.
 */
export function canaryTrends(runs: readonly HistoryRow[], links: HistoryLinks): string {
  const judged = runs.filter((row) => row.canaries !== undefined);
  if (judged.length === 0) return '';
  const judges = [...new Set(judged.flatMap((row) => Object.keys(row.canaries?.judges ?? {})))].sort(compareText);
  const runTimes = runs.map((row) => row.created_at);
  const series = (value: (entry: CanaryEntry) => number | undefined, describe: (entry: CanaryEntry) => string): TrendSeries[] =>
    judges.map((judge) => ({
      name: judge,
      points: runs.map((row) => {
        const entry = row.canaries !== undefined && Object.hasOwn(row.canaries.judges, judge) ? row.canaries.judges[judge] : undefined;
        const shown = entry === undefined ? undefined : value(entry);
        if (entry === undefined || shown === undefined) return undefined;
        return {
          value: shown,
          href: links.report(row.run_id),
          label: `${isolated(judge)} · ${row.run_id} · ${row.created_at} · ${describe(entry)}${entry.changed ? ' · judge changed' : ''}`,
          regression: entry.changed,
        };
      }),
    }));
  const charts = [
    chart(
      'canary-trend-1',
      'canary verdicts changed against the run compared with',
      runTimes,
      series(
        (entry) => (entry.paired === undefined || entry.paired === 0 ? undefined : (entry.changed_items ?? 0) / entry.paired),
        (entry) => `${entry.changed_items ?? 0} of ${entry.paired ?? 0} changed, p ${(entry.p_value ?? 1).toFixed(4)}`,
      ),
      (value) => `${(value * 100).toFixed(1)}%`,
      true,
    ),
    chart(
      'canary-trend-2',
      "agreement with the canary's human labels (Cohen's kappa)",
      runTimes,
      series(
        (entry) => (entry.kappa === undefined || entry.kappa === null ? undefined : entry.kappa),
        (entry) => `kappa ${(entry.kappa ?? 0).toFixed(4)}`,
      ),
      (value) => value.toFixed(4),
      false,
    ),
  ].filter((figure) => figure !== '');
  const flagged = [...judged].reverse().filter((row) => (row.canaries?.changed_judges.length ?? 0) > 0);
  const list =
    flagged.length === 0
      ? '<p>No charted run found a judge changed.</p>'
      : `<ul class="judge-changes">${flagged
          .map(
            (row) =>
              `<li><a href="${escapeHtml(links.report(row.run_id))}"><code>${escapeHtml(row.run_id)}</code></a> <time datetime="${escapeHtml(row.created_at)}">${escapeHtml(readableTime(row.created_at))}</time>: ${(
                row.canaries?.summary ?? []
              )
                .map((sentence) => `<span class="changed">judge changed</span> ${isolatedText(sentence.replace(/^judge changed: /, ''))}`)
                .join('<br>')}</li>`,
          )
          .join('')}</ul>`;
  return (
    '<section id="canaries" aria-labelledby="canaries-heading"><h2 id="canaries-heading">Judge canaries</h2>' +
    '<p class="note">Each run judges the suite’s canary set afresh; a ringed point is a run whose canary found the judge changed (its verdicts moved beyond chance against the run it was compared with, or another model identity answered).</p>' +
    (charts.length === 0 ? '' : `<div class="chart-grid">${charts.join('')}</div>`) +
    `<h3>Runs that found a judge changed</h3>${list}</section>`
  );
}

type CanaryEntry = NonNullable<HistoryRow['canaries']>['judges'][string];

function chart(
  id: string,
  title: string,
  runTimes: readonly string[],
  series: TrendSeries[],
  formatValue: (value: number) => string,
  percent: boolean,
): string {
  if (!series.some((entry) => entry.points.some((point) => point !== undefined))) return '';
  const ring = { one: 'judge changed', many: 'runs that found the judge changed' };
  return `<figure class="chart"><figcaption>${escapeHtml(title)}</figcaption>${trendChart({ id, title, runTimes, series, formatValue, percent, ring })}</figure>`;
}
