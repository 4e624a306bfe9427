import { escapeHtml, isolatedText } from '../report-render/html/escape.js';
import { selfContainedPage } from '../report-render/html/page.js';
import type { HistoryFile } from './history-file.js';
import { canaryTrends } from './html/canary-trends.js';
import { historyCharts } from './html/history-charts.js';
import type { HistoryLinks } from './html/history-links.js';
import { HISTORY_STYLES } from './html/history-styles.js';
import { readableTime, runsTable } from './html/runs-table.js';

/** The newest runs a history page charts: a hundred nights, about three months, keep each point a few pixels apart. */
export const CHARTED_RUNS = 100;

export interface HistoryPageOptions {
  readonly links: HistoryLinks;
  /** Chart the newest this many runs (default CHARTED_RUNS); the runs table lists every run. */
  readonly chartedRuns?: number;
  /** Markup placed first in the page, such as `assay view`'s navigation (no style or script of its own). */
  readonly navigation?: string;
}

/**
 * `history.html`: one self-contained page of a suite's history, like
 * report.html (inline style sheet and script, allowed by hash in its
 * Content-Security-Policy; nothing fetched): a trend chart per headline
 * statistic over the newest runs, each point linked to its run's report and
 * regressions ringed, then the table of every run. Its size grows with the
 * charted runs, not with the history's length, but for one table row per
 * run. A pure function of the history: the same history gives the same bytes.
 */
export function renderHistoryHtml(history: HistoryFile, options: HistoryPageOptions): string {
  const chartedRuns = Math.max(1, options.chartedRuns ?? CHARTED_RUNS);
  const charted = history.runs.slice(-chartedRuns);
  const first = history.runs[0];
  const newest = history.runs.at(-1);
  const facts = [
    ['Runs', String(history.runs.length)],
    ['First', first === undefined ? '-' : timeOf(first.created_at)],
    [
      'Newest',
      newest === undefined
        ? '-'
        : `<a href="${escapeHtml(options.links.report(newest.run_id))}"><code>${isolatedText(newest.run_id)}</code></a> ${timeOf(newest.created_at)}`,
    ],
  ];
  const charts = historyCharts(charted, options.links);
  const chartNote =
    charted.length < history.runs.length
      ? `The charts show the newest ${charted.length} of ${history.runs.length} runs; the table lists them all, and history.json holds every value.`
      : `The charts show every run, oldest on the left.`;
  const unreadable = history.unreadable_rows ?? [];
  return selfContainedPage({
    title: `${history.suite}: history · assay`,
    styles: HISTORY_STYLES,
    body: [
      options.navigation ?? '',
      '<header><p class="kicker">assay suite history</p>',
      `<h1>${isolatedText(history.suite)}</h1>`,
      `<dl class="facts">${facts.map(([name, value]) => `<div><dt>${name}</dt><dd>${value}</dd></div>`).join('')}</dl></header>`,
      unreadable.length === 0
        ? ''
        : `<section class="warning" aria-labelledby="unreadable-heading"><h2 id="unreadable-heading">Rows left out</h2><ul>${unreadable
            .map((entry) => `<li><code>${isolatedText(entry.key)}</code>: ${isolatedText(entry.reason)}</li>`)
            .join(
              '',
            )}</ul><p>Run <code>assay history rebuild --suite ${escapeHtml(history.suite)}</code> to make them again from the reports.</p></section>`,
      '<section id="trends" aria-labelledby="trends-heading"><h2 id="trends-heading">Trends</h2>',
      history.runs.length === 0
        ? '<p>No reported run yet.</p>'
        : `<p class="note">${chartNote} Each point links to its run’s report.</p>${charts}`,
      '</section>',
      canaryTrends(charted, options.links),
      '<section id="runs" aria-labelledby="runs-heading"><h2 id="runs-heading">Runs</h2>',
      history.runs.length === 0 ? '' : runsTable(history.runs, options.links),
      '</section>',
    ],
  });
}

function timeOf(iso: string): string {
  return `<time datetime="${escapeHtml(iso)}">${escapeHtml(readableTime(iso))}</time>`;
}
