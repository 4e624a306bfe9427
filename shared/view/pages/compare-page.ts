import type { RunComparison } from '../../compare/compare-runs.js';
import { compareText } from '../../report/ordering.js';
import { escapeHtml } from '../../report-render/html/escape.js';
import type { CaseLine } from '../../schema/report.js';
import type { QueryChange } from '../compare-stored.js';
import type { StoredRun } from '../view-data.js';
import { viewNavigation, viewPage } from './layout.js';
import { rankedListsSideBySide } from './ranked-lists.js';
import { viewPaths } from './view-paths.js';

/** What the compare page shows once both runs are found. */
export interface ComparedRuns {
  readonly a: StoredRun;
  readonly b: StoredRun;
  readonly comparison: RunComparison;
  readonly engine: string | undefined;
  readonly metric: string | undefined;
  readonly changes: { readonly page: readonly QueryChange[]; readonly total: number; readonly unchanged: number; readonly offset: number; readonly limit: number } | undefined;
  readonly lists: { readonly a: ReadonlyMap<string, CaseLine>; readonly b: ReadonlyMap<string, CaseLine> };
}

/**
 * `/compare?a=RUN&b=RUN`: a form to choose the runs, the engine and the
 * metric; per engine and metric the numbers of `assay compare --json` (means,
 * delta, p-values, significance, n, wins, losses, ties); and the chosen
 * engine's per-query changes of the chosen metric, the largest loss first, a
 * page at a time, each query opening to the two runs' ranked lists side by side.
 */
export function comparePage(form: { readonly a?: string; readonly b?: string }, compared: ComparedRuns | undefined, problem?: string): string {
  const body =
    '<header><p class="kicker">assay view</p><h1>Compare two runs</h1>' +
    '<p class="note">Cases are paired by request id within each engine, as <code>assay compare A B</code> pairs them; delta = B − A, positive when B is higher.</p></header>' +
    choiceForm(form, compared) +
    (problem === undefined ? '' : `<p class="warning">${escapeHtml(problem)}</p>`) +
    (compared === undefined ? '' : summaryTable(compared) + queryChangesSection(compared));
  return viewPage('Compare two runs', viewNavigation([['Suites', viewPaths.suites()], ...(compared === undefined ? [] : runLinks(compared))]), body);
}

function runLinks(compared: ComparedRuns): [string, string][] {
  return [
    [`A: ${compared.a.runId}`, viewPaths.run(compared.a.runId)],
    [`B: ${compared.b.runId}`, viewPaths.run(compared.b.runId)],
  ];
}

function choiceForm(form: { readonly a?: string; readonly b?: string }, compared: ComparedRuns | undefined): string {
  const engines = compared === undefined ? [] : Object.keys(compared.comparison.engines).sort(compareText);
  const metrics = compared?.engine === undefined ? [] : Object.keys(compared.comparison.engines[compared.engine] ?? {}).sort(compareText);
  const select = (name: string, label: string, options: readonly string[], chosen: string | undefined) =>
    options.length === 0
      ? ''
      : `<label for="choose-${name}">${label}<select id="choose-${name}" name="${name}">${options
          .map((option) => `<option${option === chosen ? ' selected' : ''}>${escapeHtml(option)}</option>`)
          .join('')}</select></label>`;
  return (
    '<form class="choose" method="get" action="/compare">' +
    `<label for="choose-a">Run A (before)<input id="choose-a" name="a" required pattern="r-[0-9a-f]{16}" value="${escapeHtml(form.a ?? '')}" placeholder="r-…" autocomplete="off" spellcheck="false"></label>` +
    `<label for="choose-b">Run B (after)<input id="choose-b" name="b" required pattern="r-[0-9a-f]{16}" value="${escapeHtml(form.b ?? '')}" placeholder="r-…" autocomplete="off" spellcheck="false"></label>` +
    select('engine', 'Engine', engines, compared?.engine) +
    select('metric', 'Metric of the per-query changes', metrics, compared?.metric) +
    '<button type="submit">Compare</button></form>'
  );
}

function summaryTable(compared: ComparedRuns): string {
  const rows = Object.keys(compared.comparison.engines)
    .sort(compareText)
    .flatMap((engine) => {
      const metrics = compared.comparison.engines[engine] ?? {};
      return Object.keys(metrics)
        .sort(compareText)
        .map((metric) => {
          const entry = metrics[metric];
          if (entry === undefined) return '';
          const change = !entry.significant || entry.delta === 0 ? 'no' : entry.delta > 0 ? '▲ higher' : '▼ lower';
          const rowClass = !entry.significant || entry.delta === 0 ? 'unchanged' : entry.delta > 0 ? 'higher' : 'lower';
          return (
            `<tr class="${rowClass}"><td>${escapeHtml(engine)}</td><td><a href="${escapeHtml(viewPaths.compare(compared.a.runId, compared.b.runId, { engine, metric }))}"><code>${escapeHtml(metric)}</code></a></td>` +
            `${number(entry.a)}${number(entry.b)}<td class="number delta" data-value="${entry.delta}">${signed(entry.delta)}</td>` +
            `<td class="number" data-value="${entry.relative_delta ?? ''}">${entry.relative_delta === null ? '-' : `${(entry.relative_delta * 100).toFixed(1)}%`}</td>` +
            `<td class="number" data-value="${entry.p_value}">${pValue(entry.p_value)}</td><td class="number" data-value="${entry.t_test_p_value}">${pValue(entry.t_test_p_value)}</td>` +
            `<td>${change}</td><td class="number">${entry.n}</td><td class="number">${entry.wins}/${entry.losses}/${entry.ties}</td></tr>`
          );
        });
    });
  return (
    '<section id="summary" aria-labelledby="summary-heading"><h2 id="summary-heading">Per engine and metric</h2>' +
    (rows.length === 0
      ? '<p>The runs have no engine and metric in common.</p>'
      : '<div class="scroll"><table class="comparison" data-sortable><thead><tr><th scope="col">engine</th><th scope="col">metric</th>' +
        `<th scope="col" class="number">A <code>${escapeHtml(compared.a.runId)}</code></th><th scope="col" class="number">B <code>${escapeHtml(compared.b.runId)}</code></th>` +
        '<th scope="col" class="number">delta</th><th scope="col" class="number">relative</th><th scope="col" class="number">p-value</th>' +
        '<th scope="col" class="number">t-test p</th><th scope="col">significant</th><th scope="col" class="number">n</th><th scope="col" class="number">W/L/T</th>' +
        `</tr></thead><tbody>${rows.join('')}</tbody></table></div><p class="note">p-value: paired randomization test (10,000 seeded sign flips, or all 2^n under 14 pairs); significant at p &lt; 0.05. W/L/T: queries where B is above, below or equal to A. The same numbers as <code>assay compare --json</code> and <a href="${escapeHtml(`/api/compare?a=${compared.a.runId}&b=${compared.b.runId}`)}">/api/compare</a>.</p>`) +
    '</section>'
  );
}

function queryChangesSection(compared: ComparedRuns): string {
  const { engine, metric, changes } = compared;
  if (engine === undefined || metric === undefined || changes === undefined) return '';
  const heading = `<h2 id="queries-heading">Per-query changes: ${escapeHtml(engine)}, <code>${escapeHtml(metric)}</code></h2>`;
  if (changes.total === 0) return `<section id="queries" aria-labelledby="queries-heading">${heading}<p>No query changed (${changes.unchanged} unchanged).</p></section>`;
  const pageLink = (offset: number, text: string, rel: string) =>
    `<a href="${escapeHtml(viewPaths.compare(compared.a.runId, compared.b.runId, { engine, metric, offset, limit: changes.limit }))}" rel="${rel}">${text}</a>`;
  const pages = [
    changes.offset > 0 ? pageLink(Math.max(0, changes.offset - changes.limit), `Previous ${changes.limit}`, 'prev') : '',
    changes.offset + changes.page.length < changes.total ? pageLink(changes.offset + changes.page.length, `Next ${changes.limit}`, 'next') : '',
  ].filter((link) => link !== '');
  const captions = [`A: ${compared.a.runId}`, `B: ${compared.b.runId}`] as const;
  const items = changes.page.map(
    (change) =>
      `<li><details><summary><code>${escapeHtml(change.request_id)}</code>: A ${change.a.toFixed(4)}, B ${change.b.toFixed(4)} <span class="delta">(${signed(change.delta)})</span></summary>` +
      `${rankedListsSideBySide(compared.lists.a.get(change.request_id), compared.lists.b.get(change.request_id), captions)}</details></li>`,
  );
  return (
    `<section id="queries" aria-labelledby="queries-heading">${heading}` +
    `<p class="note">${changes.total} ${changes.total === 1 ? 'query' : 'queries'} changed, ${changes.unchanged} unchanged; the largest loss first. Open a query to see the two ranked lists side by side.</p>` +
    `<nav class="pages" aria-label="Pages of query changes">${pages.join('')}</nav>` +
    `<ol class="query-changes" start="${changes.offset + 1}">${items.join('')}</ol></section>`
  );
}

function number(value: number): string {
  return `<td class="number" data-value="${value}">${value.toFixed(4)}</td>`;
}

function signed(delta: number): string {
  return `${delta > 0 ? '+' : delta < 0 ? '−' : '±'}${Math.abs(delta).toFixed(4)}`;
}

function pValue(value: number): string {
  return value < 0.001 ? '&lt; 0.001' : value.toFixed(3);
}
