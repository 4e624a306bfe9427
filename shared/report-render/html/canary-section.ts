import type { Report } from '../../schema/report.js';
import { CANARY_COLUMNS, canaryNote, canaryRows } from '../canary-table.js';
import { escapeHtml, isolatedText } from './escape.js';

/** The judges on the canary set: one row per judge, a changed judge's row marked, and the note on how they were tested. */
export function canarySection(report: Report): string {
  if (report.canaries === undefined) return '';
  const header = CANARY_COLUMNS.map(
    (title, column) => `<th scope="col"${column > 0 && column < 7 ? ' class="number"' : ''}>${escapeHtml(title)}</th>`,
  ).join('');
  const body = canaryRows(report.canaries).map(
    (row) =>
      `<tr${row.changed ? ' class="flagged"' : ''}><th scope="row"><code>${isolatedText(row.judge)}</code></th>` +
      row.cells
        .map((cell, index) => {
          const shown =
            index === row.cells.length - 1 && cell !== ''
              ? `<strong class="judge-changed">${escapeHtml(cell)}</strong>`
              : isolatedText(cell);
          return `<td${index < 6 ? ' class="number"' : ''}>${shown}</td>`;
        })
        .join('') +
      '</tr>',
  );
  return (
    '<section id="canaries" aria-labelledby="canaries-heading"><h2 id="canaries-heading">Judge canaries</h2>' +
    `<div class="scroll"><table class="canaries"><thead><tr>${header}</tr></thead><tbody>${body.join('')}</tbody></table></div>` +
    `<p class="note">${escapeHtml(canaryNote(report.canaries))}</p></section>`
  );
}
