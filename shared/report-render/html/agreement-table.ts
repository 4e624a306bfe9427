import type { Report } from '../../schema/report.js';
import { AGREEMENT_COLUMNS, agreementNote, agreementRows } from '../agreement-table.js';
import { escapeHtml } from './escape.js';

/** The judges' agreement with the human labels: one plain table row per judge, no chart, no script. */
export function agreementSection(report: Report): string {
  const rows = agreementRows(report);
  if (rows.length === 0) return '';
  const header = AGREEMENT_COLUMNS.map((title, column) => `<th scope="col"${column === 0 ? '' : ' class="number"'}>${escapeHtml(title)}</th>`).join('');
  const body = rows.map((row) => `<tr><th scope="row"><code>${escapeHtml(row.judge)}</code></th>${row.cells.map((cell) => `<td class="number">${escapeHtml(cell)}</td>`).join('')}</tr>`);
  return (
    '<section id="agreement" aria-labelledby="agreement-heading"><h2 id="agreement-heading">Agreement with the human labels</h2>' +
    `<div class="scroll"><table class="agreement"><thead><tr>${header}</tr></thead><tbody>${body.join('')}</tbody></table></div>` +
    `<p class="note">${escapeHtml(agreementNote(report))}</p></section>`
  );
}

/** The report's warnings, first on the page after the header. */
export function warningsSection(report: Report): string {
  const warnings = report.warnings ?? [];
  if (warnings.length === 0) return '';
  return (
    '<section id="warnings" aria-labelledby="warnings-heading"><h2 id="warnings-heading">Warnings</h2>' +
    `<ul>${warnings.map((warning) => `<li>${escapeHtml(warning)}</li>`).join('')}</ul></section>`
  );
}
