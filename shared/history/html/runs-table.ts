import { escapeHtml, isolatedText } from '../../report-render/html/escape.js';
import { regressionEvidence } from '../../report-render/regression-text.js';
import { tableControls } from '../../report-render/html/table-script.js';
import type { HistoryRow } from '../history-row.js';
import type { HistoryLinks } from './history-links.js';

const TABLE_ID = 'runs-table';

/**
 * Every run of the history, newest first: time, run (linked to its
 * report), dataset, config hash (marked where it differs from the run
 * before), judge, case counts, and the regressions its comparison found,
 * with a link to compare it with the run before when the page offers one.
 */
export function runsTable(runs: readonly HistoryRow[], links: HistoryLinks): string {
  const rows = runs
    .map((row, index) => {
      const before = index > 0 ? runs[index - 1] : undefined;
      const changedConfig = before !== undefined && before.config_hash !== row.config_hash;
      const regressions =
        row.regressions.length === 0
          ? '<td class="number" data-value="0">0</td>'
          : `<td class="number" data-value="${row.regressions.length}"><details><summary>${row.regressions.length}</summary><ul class="regressions">${row.regressions
              .map(
                (entry) =>
                  `<li>${isolatedText(entry.engine)} <code>${isolatedText(entry.metric)}</code> ${signed(entry.delta)} (${escapeHtml(regressionEvidence(entry, row.adjustment))})</li>`,
              )
              .join('')}</ul></details></td>`;
      const compare =
        links.compare === undefined
          ? ''
          : `<td>${before === undefined ? '<span class="missing">-</span>' : `<a href="${escapeHtml(links.compare(before.run_id, row.run_id))}">with the run before</a>`}</td>`;
      return (
        `<tr><td><time datetime="${escapeHtml(row.created_at)}">${escapeHtml(readableTime(row.created_at))}</time></td><td><a href="${escapeHtml(links.report(row.run_id))}"><code>${escapeHtml(row.run_id)}</code></a></td>` +
        `<td><code>${isolatedText(row.dataset)}</code></td><td><code>${isolatedText(row.config_hash)}</code>${changedConfig ? ' <span class="changed">changed</span>' : ''}</td>` +
        `<td>${isolatedText(row.judge)}${judgeChanged(row)}</td><td class="number" data-value="${row.cases.evaluated}">${row.cases.evaluated} of ${row.cases.total}</td>` +
        `<td class="number">${row.cases.failed}</td><td class="number">${row.cases.missing}</td>` +
        `<td class="number">${row.cases.judge_failed ?? 0}</td>${regressions}${compare}</tr>`
      );
    })
    .reverse();
  return (
    tableControls(TABLE_ID, 'Filter runs') +
    `<div class="scroll"><table id="${TABLE_ID}" class="runs" data-sortable><thead><tr><th scope="col">created</th><th scope="col">run</th>` +
    '<th scope="col">dataset</th><th scope="col">config hash</th><th scope="col">judge</th><th scope="col" class="number">evaluated</th>' +
    '<th scope="col" class="number">failed</th><th scope="col" class="number">missing</th>' +
    '<th scope="col" class="number" title="cases a judge failed for good: its metrics average fewer cases">lacking a judgment</th>' +
    '<th scope="col" class="number">regressions</th>' +
    `${links.compare === undefined ? '' : '<th scope="col">compare</th>'}</tr></thead><tbody>${rows.join('')}</tbody></table></div>`
  );
}

/** `2026-11-03T02:00:00.000Z` → `2026-11-03 02:00:00Z`: the same instant, easier to read in a narrow column. */
export function readableTime(iso: string): string {
  return iso.replace('T', ' ').replace(/\.\d+Z$/, 'Z');
}

function signed(delta: number): string {
  return `${delta > 0 ? '+' : delta < 0 ? '−' : '±'}${Math.abs(delta).toFixed(4)}`;
}

/** A run whose canary found a judge changed says so beside its judge, naming the judges. */
function judgeChanged(row: HistoryRow): string {
  const changed = row.canaries?.changed_judges ?? [];
  if (changed.length === 0) return '';
  return ` <span class="changed" title="${escapeHtml(row.canaries?.summary.join('\n') ?? '')}">judge changed: ${changed.map((judge) => isolatedText(judge)).join(', ')}</span>`;
}
