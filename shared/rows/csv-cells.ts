import type { Result } from '../schema/result.js';
import type { InputError } from '../schema/input-error.js';
import { checkedErrors, checkedValue, type Checked } from './checked.js';
import { conventionForName } from './conventions.js';
import { parsePythonStringList } from './python-string-list.js';
import { setOwnKey } from './own-keys.js';
import type { SourceRow } from '../readers/reader-event.js';
import { DEFAULT_ROW_LIMITS, nestsDeeperThan, tooDeepError, type RowLimits } from '../readers/row-limits.js';

const LIST_FIX = `write the list as JSON (["first", "second"]) or as a Python list of quoted strings (['first', "it's second"])`;
/** The fixes of the cells that hold an object rather than a list, by field. */
const OBJECT_FIXES: Readonly<Record<string, string>> = {
  tags: 'write tags as a JSON object {"name": "value"}',
  human_verdicts: 'write human_verdicts as a JSON object {"correctness": "yes", "correctness_score": 0.8}',
};

/**
 * Turns a CSV row's text cells into the values the conventions expect. Cells of
 * list and object fields hold JSON, or a Python list of strings as pandas
 * writes RAGAS exports; every other cell stays text (numbers inside chunks are
 * read later, by the row schema). An empty cell is a missing value: CSV has no
 * other way to say "nothing here", so it is left out rather than kept as "".
 */
export function decodeCsvRow(file: string, row: SourceRow<string>, limits: RowLimits = DEFAULT_ROW_LIMITS): Checked<SourceRow> {
  const fields: Record<string, unknown> = {};
  const errors: InputError[] = [];
  for (const [column, cell] of Object.entries(row.fields)) {
    if (cell === '') continue;
    if (conventionForName(column)?.cell !== 'structured') {
      // Defined, not assigned: a column named __proto__ stays a column, for load-dataset to reject.
      setOwnKey(fields, column, cell);
      continue;
    }
    if (nestsDeeperThan(cell, limits.maxDepth - 1)) {
      errors.push(tooDeepError(file, row.line, limits, column));
      continue;
    }
    const decoded = decodeStructuredCell(cell);
    if (decoded.ok) setOwnKey(fields, column, decoded.value);
    else
      errors.push({
        file,
        line: row.line,
        field: column,
        message: decoded.error,
        fix: OBJECT_FIXES[conventionForName(column)?.field ?? ''] ?? LIST_FIX,
      });
  }
  return errors.length > 0 ? checkedErrors(errors) : checkedValue({ line: row.line, fields });
}

function decodeStructuredCell(cell: string): Result<unknown> {
  const text = cell.trim();
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    // Not JSON: maybe a Python list, as pandas writes one.
  }
  if (!text.startsWith('[')) return { ok: false, error: 'expected a JSON list or object, got plain text' };
  const list = parsePythonStringList(text);
  if (list.ok) return { ok: true, value: list.value };
  return { ok: false, error: `neither JSON nor a Python list of strings: ${list.error}` };
}
