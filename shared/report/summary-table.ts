import type { Report } from '../schema/report.js';
import { keyMetricTable } from './key-metrics.js';

const GAP = '  ';

/**
 * The key metrics as a plain-text table for the terminal, printed by the CLI
 * at the end of a run: one row per key statistic (the same as report.md's),
 * one right-aligned column per engine, a rule under the header. Ends with a
 * newline.
 */
export function renderSummaryTable(report: Report): string {
  const table = keyMetricTable(report);
  if (table.rows.length === 0) return 'No metric to show.\n';
  const header = ['metric', ...table.engines];
  const body = table.rows.map((row) => [row.metric, ...row.cells]);
  const widths = header.map((title, column) => Math.max(title.length, ...body.map((cells) => (cells[column] ?? '').length)));
  const line = (cells: readonly string[]): string =>
    cells
      .map((cell, column) => (column === 0 ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0)))
      .join(GAP)
      .trimEnd();
  const rule = widths.map((width) => '-'.repeat(width)).join(GAP);
  return `${[line(header), rule, ...body.map(line)].join('\n')}\n`;
}
