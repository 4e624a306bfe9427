import { readBoundedLines } from './text-lines.js';
import { describeJsonType, isPlainObject, type ReaderEvent } from './reader-event.js';
import { DEFAULT_ROW_LIMITS, nestsDeeperThan, tooDeepError, tooLargeError, type RowLimits } from './row-limits.js';

const ONE_OBJECT_PER_LINE = 'write one JSON object per line ({"request": "...", ...}), with double-quoted keys and strings';
const JSON_ARRAY_FIX = 'a file that holds one JSON array of rows is read as JSON: name it .json, or give --format json';

/**
 * Streams a JSONL (newline-delimited JSON) file: one object per line. Blank
 * lines are skipped; a line that is not a JSON object, or is past the row
 * limits, becomes a `bad-row` and reading goes on with the next line.
 */
export async function* readJsonLines(file: string, limits: RowLimits = DEFAULT_ROW_LIMITS): AsyncGenerator<ReaderEvent> {
  for await (const read of readBoundedLines(file, limits.maxRowCharacters)) {
    if (!('text' in read)) {
      yield { kind: 'bad-row', errors: [tooLargeError(file, read.line, read.skippedCharacters, limits)] };
      continue;
    }
    const { line, text } = read;
    if (text.trim() === '') continue;
    if (nestsDeeperThan(text, limits.maxDepth)) {
      yield { kind: 'bad-row', errors: [tooDeepError(file, line, limits)] };
      continue;
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      yield { kind: 'bad-row', errors: [{ file, line, message: `not valid JSON: ${shorten(reason)}`, fix: ONE_OBJECT_PER_LINE }] };
      continue;
    }
    if (!isPlainObject(value)) {
      // A whole dataset written as one JSON array is read as a JSON file: tell the user how, not only what a line should be.
      const fix = Array.isArray(value) && value.some(isPlainObject) ? `${ONE_OBJECT_PER_LINE}; ${JSON_ARRAY_FIX}` : ONE_OBJECT_PER_LINE;
      yield { kind: 'bad-row', errors: [{ file, line, message: `expected a JSON object, got ${describeJsonType(value)}`, fix }] };
      continue;
    }
    yield { kind: 'row', row: { line, fields: value } };
  }
}

/** Parser messages quote the input; a 5 MB line must not become a 5 MB error message. */
export function shorten(text: string, limit = 200): string {
  return text.length <= limit ? text : `${text.slice(0, limit)}…`;
}
