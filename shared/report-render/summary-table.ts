import type { Report } from '../schema/report.js';
import { keyMetricTable } from '../report/key-metrics.js';
import { alignedTable } from './text-table.js';

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
  return `${alignedTable(header, body)}\n`;
}
