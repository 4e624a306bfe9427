import { JsonArraySplitter, type SplitterOutput } from './json-array-splitter.js';
import { shorten } from './jsonl-reader.js';
import { describeJsonType, isPlainObject, type ReaderEvent } from './reader-event.js';
import { DEFAULT_ROW_LIMITS, nestsDeeperThan, tooDeepError, tooLargeError, type RowLimits } from './row-limits.js';
import { readTextChunks } from './text-chunks.js';

const FIX_ELEMENT = 'make each element of the array a JSON object {"request": "...", ...} with double-quoted keys and strings';

/**
 * Streams a JSON array of row objects element by element, each with the line
 * where it starts. Also reads `{"data": [...]}` and the other wrapper keys the
 * splitter knows.
 */
export async function* readJsonArray(file: string, limits: RowLimits = DEFAULT_ROW_LIMITS): AsyncGenerator<ReaderEvent> {
  const splitter = new JsonArraySplitter(limits.maxRowCharacters);
  for await (const chunk of readTextChunks(file)) {
    for (const output of splitter.push(chunk)) yield toReaderEvent(file, output, limits);
  }
  for (const output of splitter.end()) yield toReaderEvent(file, output, limits);
}

function toReaderEvent(file: string, output: SplitterOutput, limits: RowLimits): ReaderEvent {
  switch (output.kind) {
    case 'document-error':
      return { kind: 'file-error', error: { file, line: output.line, message: output.message, fix: output.fix } };
    case 'bad-element':
      return { kind: 'bad-row', errors: [{ file, line: output.line, message: `malformed element: ${output.message}`, fix: FIX_ELEMENT }] };
    case 'oversized-element':
      return { kind: 'bad-row', errors: [tooLargeError(file, output.line, output.characters, limits)] };
    case 'element':
      if (nestsDeeperThan(output.text, limits.maxDepth)) return { kind: 'bad-row', errors: [tooDeepError(file, output.line, limits)] };
      return parseElement(file, output.line, output.text);
  }
}

function parseElement(file: string, line: number, text: string): ReaderEvent {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return {
      kind: 'bad-row',
      errors: [{ file, line, message: `malformed element, not valid JSON: ${shorten(reason)}`, fix: FIX_ELEMENT }],
    };
  }
  if (!isPlainObject(value)) {
    return { kind: 'bad-row', errors: [{ file, line, message: `expected an object, got ${describeJsonType(value)}`, fix: FIX_ELEMENT }] };
  }
  return { kind: 'row', row: { line, fields: value } };
}
