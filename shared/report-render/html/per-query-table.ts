import type { CaseLine } from '../../schema/report.js';
import { compareText } from '../../report/ordering.js';
import { escapeHtml, isolated, isolatedText } from './escape.js';
import { perCaseStatistics, type KeyStatistics } from './key-statistics.js';
import { tableControls } from './table-script.js';

const TABLE_ID = 'per-query-table';

/** A large run's page shows an excerpt of its cases: which one, for the note above the table. */
export interface PerQueryExcerpt {
  readonly totalCases: number;
  readonly perMetric: number;
}

/**
 * Every line of cases.jsonl as a row: case id, request id, engine, and the
 * per-case value of each key statistic's metric (once per metric) (numbers with 4 decimals,
 * ratings as their text, "-" where the engine has none on that case). Rows
 * are in case-id, then engine order and are all in the markup; the page's
 * script adds sorting and a filter box on top.
 */
export function perQuerySection(cases: readonly CaseLine[], keys: KeyStatistics, excerpt?: PerQueryExcerpt): string {
  const heading = '<h2 id="per-query-heading">Per query</h2>';
  if (cases.length === 0) return section(`${heading}<p>No per-query result.</p>`);
  const lines = [...cases].sort((left, right) => compareText(left.case_id, right.case_id) || compareText(left.engine, right.engine));
  // A break opportunity after each slash lets long metric names wrap instead of widening the table.
  const columns = perCaseStatistics(keys);
  const metricHeaders = columns.map(
    (statistic) =>
      `<th scope="col" class="${statistic.kind === 'average' ? 'number metric' : 'metric'}" title="${escapeHtml(isolated(statistic.metric))}">${isolatedText(statistic.caseLabel, (text) => text.replaceAll('/', '/<wbr>'))}</th>`,
  );
  const rows = lines.map((line) => {
    const metrics = columns.map((statistic) =>
      metricCell(Object.hasOwn(line.metrics, statistic.metric) ? line.metrics[statistic.metric] : undefined),
    );
    return `<tr><td><code>${isolatedText(line.case_id)}</code></td><td><code>${isolatedText(line.request_id)}</code></td><td>${isolatedText(line.engine)}</td>${metrics.join('')}</tr>`;
  });
  return section(
    heading +
      (excerpt === undefined
        ? `<p class="note">${lines.length} rows: one per case and engine.</p>`
        : `<p class="note">${lines.length} rows of a run of ${excerpt.totalCases} cases: the best and worst ${excerpt.perMetric} cases of each engine on each key metric. Every case is in cases.jsonl beside this page.</p>`) +
      tableControls(TABLE_ID, 'Filter per-query rows') +
      `<div class="scroll"><table id="${TABLE_ID}" class="per-query" data-sortable><thead><tr>` +
      `<th scope="col">case</th><th scope="col">request id</th><th scope="col">engine</th>${metricHeaders.join('')}</tr></thead>` +
      `<tbody>${rows.join('')}</tbody></table></div>`,
  );
}

function metricCell(value: CaseLine['metrics'][string] | undefined): string {
  if (typeof value === 'number' && Number.isFinite(value)) return `<td class="number" data-value="${value}">${value.toFixed(4)}</td>`;
  if (typeof value === 'string') return `<td>${isolatedText(value)}</td>`;
  return '<td class="number missing">-</td>';
}

function section(body: string): string {
  return `<section id="per-query" aria-labelledby="per-query-heading">${body}</section>`;
}
