const GAP = '  ';

/**
 * A plain-text table for the terminal: the first column left-aligned, the
 * others right-aligned (they hold numbers), a dashed rule under the header,
 * no trailing spaces, one line per row.
 */
export function alignedTable(header: readonly string[], body: readonly (readonly string[])[]): string {
  const widths = header.map((title, column) => Math.max(title.length, ...body.map((cells) => (cells[column] ?? '').length)));
  const line = (cells: readonly string[]): string =>
    cells
      .map((cell, column) => (column === 0 ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0)))
      .join(GAP)
      .trimEnd();
  const rule = widths.map((width) => '-'.repeat(width)).join(GAP);
  return [line(header), rule, ...body.map(line)].join('\n');
}
