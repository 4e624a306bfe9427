import { terminalName } from './terminal-text.js';

const GAP = '  ';

/**
 * A plain-text table for the terminal: the first column left-aligned, the
 * others right-aligned (they hold numbers), a dashed rule under the header,
 * no trailing spaces, one line per row. Cells hold names from users' files
 * (engines, metrics, runs): their control characters are shown escaped.
 */
export function alignedTable(shownHeader: readonly string[], shownBody: readonly (readonly string[])[]): string {
  const header = shownHeader.map(terminalName);
  const body = shownBody.map((cells) => cells.map(terminalName));
  const widths = header.map((title, column) => Math.max(title.length, ...body.map((cells) => (cells[column] ?? '').length)));
  const line = (cells: readonly string[]): string =>
    cells
      .map((cell, column) => (column === 0 ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0)))
      .join(GAP)
      .trimEnd();
  const rule = widths.map((width) => '-'.repeat(width)).join(GAP);
  return [line(header), rule, ...body.map(line)].join('\n');
}
