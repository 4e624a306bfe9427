import { readLines } from './line-reader.js';
import { describeJsonType, isPlainObject, type ReaderEvent } from './reader-event.js';

const ONE_OBJECT_PER_LINE = 'write one JSON object per line ({"request": "...", ...}), with double-quoted keys and strings';

/**
 * Streams a JSONL (newline-delimited JSON) file: one object per line. Blank
 * lines are skipped; a line that is not a JSON object becomes a `bad-row` and
 * reading goes on with the next line.
 */
export async function* readJsonLines(file: string): AsyncGenerator<ReaderEvent> {
  for await (const { line, text } of readLines(file)) {
    if (text.trim() === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      yield { kind: 'bad-row', errors: [{ file, line, message: `not valid JSON: ${shorten(reason)}`, fix: ONE_OBJECT_PER_LINE }] };
      continue;
    }
    if (!isPlainObject(value)) {
      yield {
        kind: 'bad-row',
        errors: [{ file, line, message: `expected a JSON object, got ${describeJsonType(value)}`, fix: ONE_OBJECT_PER_LINE }],
      };
      continue;
    }
    yield { kind: 'row', row: { line, fields: value } };
  }
}

/** Parser messages quote the input; a 5 MB line must not become a 5 MB error message. */
export function shorten(text: string, limit = 200): string {
  return text.length <= limit ? text : `${text.slice(0, limit)}…`;
}
