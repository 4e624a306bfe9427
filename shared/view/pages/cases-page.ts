import { keyStatistics, perCaseStatistics } from '../../report-render/html/key-statistics.js';
import { escapeHtml, isolated, isolatedText } from '../../report-render/html/escape.js';
import type { CaseLine } from '../../schema/report.js';
import type { CasePage } from '../case-lines.js';
import type { StoredRun } from '../view-data.js';
import { viewNavigation, viewPage } from './layout.js';
import { viewPaths } from './view-paths.js';

/**
 * `/runs/<run>/cases`: cases.jsonl a page at a time (case, request, engine
 * and the per-case value of each key statistic's metric, as report.html's
 * per-query table), with links to the pages before and after: a run of a
 * million cases is read up to the page shown, never whole.
 */
export function casesPage(run: StoredRun, page: CasePage, limit: number): string {
  const columns = perCaseStatistics(keyStatistics(run.report));
  const rows = page.lines.map(
    (line) =>
      `<tr><td><code>${isolatedText(line.case_id)}</code></td><td><code>${isolatedText(line.request_id)}</code></td><td>${isolatedText(line.engine)}</td>` +
      `${columns.map((statistic) => cell(Object.hasOwn(line.metrics, statistic.metric) ? line.metrics[statistic.metric] : undefined)).join('')}</tr>`,
  );
  const first = page.offset + 1;
  const last = page.offset + page.lines.length;
  const pages = [
    page.offset > 0
      ? `<a href="${escapeHtml(viewPaths.cases(run.runId, Math.max(0, page.offset - limit), limit))}" rel="prev">Previous ${limit}</a>`
      : '',
    page.next_offset !== null
      ? `<a href="${escapeHtml(viewPaths.cases(run.runId, page.next_offset, limit))}" rel="next">Next ${limit}</a>`
      : '',
  ].filter((link) => link !== '');
  const body =
    `<header><p class="kicker">assay view · run <code>${escapeHtml(run.runId)}</code></p><h1>Every case of ${isolatedText(run.suite)}</h1>` +
    `<p class="note">${page.lines.length === 0 ? 'No line on this page.' : `Lines ${first} to ${last} of cases.jsonl (one per case and engine), ${run.report.cases.total} cases in the run.`}</p></header>` +
    `<nav class="pages" aria-label="Pages of cases">${pages.join('')}</nav>` +
    `<div class="scroll"><table id="cases-table" class="per-query" data-sortable><thead><tr><th scope="col">case</th><th scope="col">request id</th><th scope="col">engine</th>` +
    `${columns.map((statistic) => `<th scope="col" class="metric" title="${escapeHtml(isolated(statistic.metric))}">${isolatedText(statistic.caseLabel, (text) => text.replaceAll('/', '/<wbr>'))}</th>`).join('')}</tr></thead>` +
    `<tbody>${rows.join('')}</tbody></table></div>`;
  return viewPage(
    `${run.runId} cases`,
    viewNavigation([
      ['Suites', viewPaths.suites()],
      [`History of ${run.suite}`, viewPaths.suite(run.suite)],
      [`Report of ${run.runId}`, viewPaths.run(run.runId)],
    ]),
    body,
  );
}

function cell(value: CaseLine['metrics'][string] | undefined): string {
  if (typeof value === 'number' && Number.isFinite(value)) return `<td class="number" data-value="${value}">${value.toFixed(4)}</td>`;
  if (typeof value === 'string') return `<td>${isolatedText(value)}</td>`;
  return '<td class="number missing">-</td>';
}
