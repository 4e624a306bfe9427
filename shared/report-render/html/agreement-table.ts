import type { Report } from '../../schema/report.js';
import { AGREEMENT_COLUMNS, agreementNote, agreementRows } from '../agreement-table.js';
import {
  CORRECTED_COLUMNS,
  correctedBaselineRows,
  correctedDifferenceRows,
  correctedNote,
  correctedRows,
  type CorrectedRow,
} from '../corrected-table.js';
import { escapeHtml, isolatedText } from './escape.js';

/** The judges' agreement with the human labels: one plain table row per judge, no chart, no script. */
export function agreementSection(report: Report): string {
  const rows = agreementRows(report);
  if (rows.length === 0) return '';
  const header = AGREEMENT_COLUMNS.map(
    (title, column) => `<th scope="col"${column === 0 ? '' : ' class="number"'}>${escapeHtml(title)}</th>`,
  ).join('');
  const body = rows.map(
    (row) =>
      `<tr><th scope="row"><code>${isolatedText(row.judge)}</code></th>${row.cells.map((cell) => `<td class="number">${escapeHtml(cell)}</td>`).join('')}</tr>`,
  );
  return (
    '<section id="agreement" aria-labelledby="agreement-heading"><h2 id="agreement-heading">Agreement with the human labels</h2>' +
    `<div class="scroll"><table class="agreement"><thead><tr>${header}</tr></thead><tbody>${body.join('')}</tbody></table></div>` +
    `<p class="note">${escapeHtml(agreementNote(report))}</p></section>`
  );
}

/** Each human metric (ground-truth metrics, human verdicts) corrected by each judge: a plain table, the judge's flagged means marked. */
export function correctedSection(report: Report): string {
  const rows = correctedRows(report);
  const pairs = correctedDifferenceRows(report);
  const baseline = correctedBaselineRows(report);
  if (rows.length + pairs.length + baseline.length === 0) return '';
  const against = report.comparison === undefined ? '' : ` <code>${escapeHtml(report.comparison.baseline_run_id)}</code>`;
  return (
    '<section id="corrected" aria-labelledby="corrected-heading"><h2 id="corrected-heading">Ground truth corrected by the judges</h2>' +
    (rows.length === 0 ? '' : correctedTable(rows, 'engine')) +
    (pairs.length === 0 ? '' : `<h3>Differences between engines (a − b)</h3>${correctedTable(pairs, 'engines')}`) +
    (baseline.length === 0 ? '' : `<h3>Against the baseline${against} (this run − baseline)</h3>${correctedTable(baseline, 'engine')}`) +
    `<p class="note">${escapeHtml(correctedNote(report))}</p></section>`
  );
}

function correctedTable(rows: readonly CorrectedRow[], first: string): string {
  const header = [first, ...CORRECTED_COLUMNS.slice(1)]
    .map(
      (title, column) =>
        `<th scope="col"${column >= 3 && column < CORRECTED_COLUMNS.length - 1 ? ' class="number"' : ''}>${escapeHtml(title)}</th>`,
    )
    .join('');
  const body = rows.map(
    (row) =>
      `<tr${row.flagged ? ' class="flagged"' : ''}><th scope="row"><code>${isolatedText(row.engine)}</code></th><td><code>${isolatedText(row.metric)}</code></td><td><code>${isolatedText(row.judge)}</code></td>` +
      row.cells
        .map(
          (cell, index) =>
            `<td${index < row.cells.length - 1 ? ' class="number"' : ''}>${row.flagged && index === row.cells.length - 1 ? `<strong>${escapeHtml(cell)}</strong>` : escapeHtml(cell)}</td>`,
        )
        .join('') +
      '</tr>',
  );
  return `<div class="scroll"><table class="corrected"><thead><tr>${header}</tr></thead><tbody>${body.join('')}</tbody></table></div>`;
}

/** The report's warnings, first on the page after the header. */
export function warningsSection(report: Report): string {
  const warnings = report.warnings ?? [];
  if (warnings.length === 0) return '';
  return (
    '<section id="warnings" aria-labelledby="warnings-heading"><h2 id="warnings-heading">Warnings</h2>' +
    `<ul>${warnings.map((warning) => `<li>${isolatedText(warning)}</li>`).join('')}</ul></section>`
  );
}
