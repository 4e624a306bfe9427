import { engineCaseCount } from '../../report/engine-cases.js';
import type { Report } from '../../schema/report.js';
import { escapeHtml, isolated, isolatedText } from './escape.js';
import { formatInterval, formatValue, statisticValue, type KeyStatistics } from './key-statistics.js';

/**
 * The engine × key-statistic table: one row per statistic, one column per
 * engine, as report.md has it. A cell reads `0.7500 [0.70, 0.80] n=9`: the
 * value, its 95% interval when the report has one, and the case count when
 * it is below the cases the engine has (engineCaseCount): an average over
 * the labelled cases only, or over the cases a judge did not fail on.
 * With two engines or more, the highest value of a row is bold: every key
 * statistic is one where higher is better.
 */
export function metricTableSection(report: Report, keys: KeyStatistics): string {
  if (keys.statistics.length === 0) return section('<p>No metric to show.</p>');
  const header = keys.engines.map((engine) => `<th scope="col" class="number">${isolatedText(engine)}</th>`).join('');
  let anyInterval = false;
  let anyCount = false;
  const caseCounts = keys.engines.map((engine) =>
    engineCaseCount(Object.hasOwn(report.engines, engine) ? (report.engines[engine] ?? {}) : {}, report.cases.evaluated),
  );
  const rows = keys.statistics.map((statistic) => {
    const values = keys.engines.map((engine) => statisticValue(report, engine, statistic));
    const best = Math.max(...values.map((value) => value?.value ?? -Infinity));
    const cells = values.map((value, index) => {
      if (value === undefined) return '<td class="number missing">-</td>';
      const partial = value.count !== undefined && value.count < (caseCounts[index] ?? 0);
      anyInterval ||= value.interval !== undefined;
      anyCount ||= partial;
      const interval = value.interval === undefined ? '' : ` <span class="interval">${formatInterval(statistic, value.interval)}</span>`;
      const count = partial ? ` <span class="count">n=${value.count}</span>` : '';
      const text = formatValue(statistic, value.value);
      const shown = keys.engines.length > 1 && value.value === best ? `<strong>${text}</strong>` : text;
      return `<td class="number">${shown}${interval}${count}</td>`;
    });
    return `<tr><th scope="row" title="${escapeHtml(isolated(statistic.name))}"><code>${isolatedText(statistic.name)}</code></th>${cells.join('')}</tr>`;
  });
  const notes = [
    'Averages with 4 decimals; percentages are the share of “yes” ratings.',
    anyInterval ? 'Brackets: the 95% bootstrap interval.' : '',
    anyCount
      ? '<span class="count">n=…</span>: the value is over fewer cases than the engine has (the labelled cases only, or those its judge did not fail on).'
      : '',
    keys.engines.length > 1 ? 'Bold: the highest value of the row.' : '',
  ].filter((note) => note !== '');
  return section(
    `<div class="scroll"><table class="metrics"><thead><tr><th scope="col">statistic</th>${header}</tr></thead>` +
      `<tbody>${rows.join('')}</tbody></table></div><p class="note">${notes.join(' ')}</p>`,
  );
}

function section(body: string): string {
  return `<section id="metrics" aria-labelledby="metrics-heading"><h2 id="metrics-heading">Key metrics</h2>${body}</section>`;
}
