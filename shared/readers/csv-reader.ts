import { Readable } from 'node:stream';
import { parse, type CsvError } from 'csv-parse';
import type { InputError } from '../schema/input-error.js';
import { boundCsvRecords, OversizedHeaderError } from './csv-record-guard.js';
import { fileErrorFrom } from './file-errors.js';
import type { ReaderEvent } from './reader-event.js';
import { DEFAULT_ROW_LIMITS, tooLargeError, type RowLimits } from './row-limits.js';
import { readTextChunks } from './text-chunks.js';

/** What csv-parse emits per record with `info: true, raw: true`. */
interface ParsedRecord {
  record: Record<string, string>;
  info: { lines: number };
  raw: string;
}

class HeaderError extends Error {}

const QUOTING_FIX =
  'put a field that holds a comma, a quote or a line break in double quotes, and write each quote inside it twice ("say ""hi""")';

/**
 * Streams the rows of a CSV file whose first line names the columns. Every
 * cell is a string here; turning cells into lists and numbers is the job of
 * csv-cells. A row csv-parse cannot read (wrong number of fields, bad quoting)
 * becomes a `bad-row` and the rows after it still load; so does a record
 * longer than the row limit, which is skipped before the parser sees it.
 */
export async function* readCsvRows(file: string, limits: RowLimits = DEFAULT_ROW_LIMITS): AsyncGenerator<ReaderEvent<string>> {
  const skipped: InputError[] = [];
  const parserFor = (delimiter: string) =>
    parse({
      columns: nameColumns,
      delimiter,
      skip_empty_lines: true,
      skip_records_with_error: true,
      info: true,
      raw: true,
      on_skip: (error: CsvError | undefined, raw: string | undefined) => {
        if (error !== undefined) skipped.push(describeSkippedRecord(file, error, raw ?? ''));
      },
    });
  let lastErrorLine = -1;
  // csv-parse may report one broken record twice (bad closing quote, then the quote never closed).
  function* flushSkipped(beforeLine: number): Generator<ReaderEvent<string>> {
    skipped.sort((left, right) => left.line - right.line);
    while (skipped.length > 0 && (skipped[0]?.line ?? Infinity) < beforeLine) {
      const error = skipped.shift() as InputError;
      if (error.line !== lastErrorLine) yield { kind: 'bad-row', errors: [error] };
      lastErrorLine = error.line;
    }
  }
  try {
    const records = boundCsvRecords(readTextChunks(file), limits.maxRowCharacters, (line, characters) =>
      skipped.push(tooLargeError(file, line, characters, limits)),
    )[Symbol.asyncIterator]();
    // The header is in the first text passed on: its delimiter is the file's.
    const first = await records.next();
    const parser = parserFor(first.done === true ? ',' : headerDelimiter(first.value));
    const source = Readable.from(
      (async function* () {
        if (first.done !== true) yield first.value;
        for (let next = await records.next(); next.done !== true; next = await records.next()) yield next.value;
      })(),
    );
    // pipe() does not forward errors: without this a missing file would leave the parser waiting forever.
    source.on('error', (error) => parser.destroy(error));
    for await (const output of source.pipe(parser) as AsyncIterable<ParsedRecord>) {
      const line = startLine(output.info.lines, output.raw);
      yield* flushSkipped(line);
      yield { kind: 'row', row: { line, fields: output.record } };
    }
  } catch (error) {
    // A file that cannot be read is reported by the caller, like for every other format.
    if (!(error instanceof Error) || fileErrorFrom(file, error) !== undefined) throw error;
    yield* flushSkipped(Infinity);
    if (error instanceof OversizedHeaderError) {
      yield {
        kind: 'file-error',
        error: { ...tooLargeError(file, 1, error.characters, limits), message: `${error.message}, more than the limit of one row` },
      };
      return;
    }
    const header = error instanceof HeaderError;
    yield {
      kind: 'file-error',
      error: {
        file,
        line: header ? 1 : 0,
        message: header ? error.message : `cannot read the CSV: ${error.message}`,
        fix: header ? 'give every column of the header line a different name' : QUOTING_FIX,
      },
    };
    return;
  }
  yield* flushSkipped(Infinity);
}

/**
 * The delimiter of a CSV file, told by its header line: a comma, unless the
 * header holds none outside quotes but semicolons (what Excel writes where the
 * comma is the decimal mark) or tabs, whichever it holds more of. A header of
 * one column has none of them, and is read with commas.
 */
export function headerDelimiter(text: string): string {
  const counts = new Map([
    [',', 0],
    [';', 0],
    ['\t', 0],
  ]);
  let inQuotes = false;
  for (const character of text) {
    if (character === '\n' && !inQuotes) break;
    if (character === '"') inQuotes = !inQuotes;
    else if (!inQuotes && counts.has(character)) counts.set(character, (counts.get(character) ?? 0) + 1);
  }
  const [commas, semicolons, tabs] = [counts.get(',') ?? 0, counts.get(';') ?? 0, counts.get('\t') ?? 0];
  if (commas > 0 || (semicolons === 0 && tabs === 0)) return ',';
  return semicolons >= tabs ? ';' : '\t';
}

/** Header names, trimmed; an unnamed column (a pandas index, say) is called column_<n>. */
function nameColumns(header: string[]): string[] {
  const names = header.map((name, index) => (name.trim() === '' ? `column_${index + 1}` : name.trim()));
  const seen = new Set<string>();
  for (const name of names) {
    if (seen.has(name)) throw new HeaderError(`the header names the column "${name}" twice`);
    seen.add(name);
  }
  return names;
}

/**
 * csv-parse counts the line where a record ends; the user needs the line where it
 * starts. `raw` holds the record with any blank lines skipped before it and its
 * final line end, so the line breaks left in between are the record's own.
 */
function startLine(endLine: number, raw: string): number {
  const body = raw.replace(/^\n+/, '').replace(/\n$/, '');
  let breaks = 0;
  for (let index = body.indexOf('\n'); index !== -1; index = body.indexOf('\n', index + 1)) breaks += 1;
  return Math.max(1, endLine - breaks);
}

function describeSkippedRecord(file: string, error: CsvError, raw: string): InputError {
  const endLine = typeof error.lines === 'number' ? error.lines : 0;
  const line = startLine(endLine, raw);
  const detail = error.message.replace(/ on line \d+$/, '').replace(/ at line \d+/, '');
  switch (error.code) {
    case 'CSV_RECORD_INCONSISTENT_COLUMNS':
    case 'CSV_RECORD_INCONSISTENT_FIELDS_LENGTH':
      return {
        file,
        line,
        message: `wrong number of fields (${detail})`,
        fix: `give every row as many fields as the header has columns; ${QUOTING_FIX}`,
      };
    case 'CSV_QUOTE_NOT_CLOSED':
      return { file, line, message: 'a quoted field is never closed: the rest of the file was read into it', fix: QUOTING_FIX };
    case 'INVALID_OPENING_QUOTE':
      return { file, line, message: 'a quote appears inside a field that does not start with a quote', fix: QUOTING_FIX };
    case 'CSV_INVALID_CLOSING_QUOTE':
      return { file, line, message: 'text follows the closing quote of a field', fix: QUOTING_FIX };
    default:
      return { file, line, message: detail, fix: QUOTING_FIX };
  }
}
