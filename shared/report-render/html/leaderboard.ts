import type { Leaderboard } from '../../schema/leaderboard.js';
import type { Report } from '../../schema/report.js';
import { leaderboardColumns, leaderboardNote, leaderboardRows, leaderboardTitle } from '../leaderboard-text.js';
import { escapeHtml, isolatedText } from './escape.js';

/**
 * The leaderboards of a run of three engines or more (report.leaderboards):
 * per board the ranked table (leaderboard-text.ts), its note, and every pair
 * with its test, difference, raw and adjusted p-value in a sortable table
 * under a disclosure, since a sweep has hundreds.
 */
export function leaderboardSection(report: Report): string {
  const boards = report.leaderboards ?? [];
  if (boards.length === 0) return '';
  return (
    '<section id="leaderboard" aria-labelledby="leaderboard-heading"><h2 id="leaderboard-heading">Leaderboard</h2>' +
    boards.map(board).join('') +
    '</section>'
  );
}

function board(entry: Leaderboard): string {
  const title = leaderboardTitle(entry, (text) => `<code>${isolatedText(text)}</code>`);
  const columns = leaderboardColumns('engine');
  const rows = leaderboardRows(entry)
    .map(
      ([name = '', rank = '', mean = '', letters = '', better = '']) =>
        `<tr><th scope="row"><code>${isolatedText(name)}</code></th><td class="number">${escapeHtml(rank)}</td>` +
        `<td class="number">${escapeHtml(mean)}</td><td><code>${escapeHtml(letters)}</code></td><td>${escapeHtml(better)}</td></tr>`,
    )
    .join('');
  return (
    `<h3>${title}</h3><div class="scroll"><table class="leaderboard"><thead><tr>` +
    columns
      .map((column, index) => `<th scope="col"${index === 1 || index === 2 ? ' class="number"' : ''}>${escapeHtml(column)}</th>`)
      .join('') +
    `</tr></thead><tbody>${rows}</tbody></table></div><p class="note">${escapeHtml(leaderboardNote(entry, 'engine'))}</p>` +
    pairsTable(entry)
  );
}

function pairsTable(entry: Leaderboard): string {
  const rows = entry.pairs
    .map(
      (pair) =>
        `<tr><td><code>${isolatedText(pair.names[0])}</code></td><td><code>${isolatedText(pair.names[1])}</code></td>` +
        `<td>${escapeHtml(pair.test)}</td>${numberCell(pair.difference, 4)}<td class="number">${pair.n}</td>` +
        `${numberCell(pair.p_value, 4)}${numberCell(pair.adjusted_p_value, 4)}<td>${pair.separated ? 'yes' : 'no'}</td>` +
        `<td>${escapeHtml(pair.reason ?? '')}</td></tr>`,
    )
    .join('');
  return (
    `<details><summary>Every pair (${entry.pairs.length})</summary><div class="scroll"><table class="leaderboard-pairs" data-sortable><thead><tr>` +
    '<th scope="col">first</th><th scope="col">second</th><th scope="col">test</th><th scope="col" class="number">difference</th>' +
    '<th scope="col" class="number">n</th><th scope="col" class="number">p-value</th><th scope="col" class="number">adjusted</th>' +
    `<th scope="col">separated</th><th scope="col">why</th></tr></thead><tbody>${rows}</tbody></table></div></details>`
  );
}

function numberCell(value: number | null, decimals: number): string {
  if (value === null) return '<td class="number">-</td>';
  const text = value !== 0 && Math.abs(value) < 10 ** -decimals ? `&lt; ${(10 ** -decimals).toFixed(decimals)}` : value.toFixed(decimals);
  return `<td class="number" data-value="${value}">${text}</td>`;
}
