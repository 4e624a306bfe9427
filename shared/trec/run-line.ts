import type { InputError } from '../schema/input-error.js';
import { decodeField, forEachLineRun, isFieldByte, isSpaceByte } from './byte-lines.js';
import { HASH_SEED, hashStep } from './byte-string-table.js';
import { POWERS_OF_TEN, parseNumberBytes } from './parse-number.js';

/**
 * The TREC run-line rule, the one every reader of a run file follows:
 * `readRun` for `assay ir-metrics` (and `assay agreement`), `readRunLines`
 * for a TREC collection, which `assay run` and `assay validate` load alike,
 * and the trec engine. The WebAssembly kernel (kernels/trec-run-kernel.ts)
 * is its fast path: it reads the files of the common shape and gives every
 * other file back to these readers, and the property tests hold it to them.
 *
 * - A line is `qid iter docno rank score tag`: fields are split at runs of C
 *   isspace bytes, as trec_eval splits them (a carriage return before the
 *   newline is one), and fields after the tag are ignored.
 * - A blank line, and a line whose first field starts with `#`, are skipped
 *   (trec_eval's get_trec_results.c); they are no rows.
 * - A line of fewer than six fields is an error.
 * - The iter and rank fields are read past, never checked: ranking is by
 *   score, as in trec_eval.
 * - The score is the double C's atof reads from its decimal text
 *   (parseNumberBytes: correctly rounded, whatever its length); a score that
 *   is no number is an error, and so is an infinite one where the scores are
 *   stored as JSON (a collection).
 * - A document listed twice for a topic of one run is an error at the later
 *   line, and only the first line counts. Which lines make one run is the
 *   reader's to say (one file for ir-metrics; a tag of a collection).
 *
 * Every error names the file and the line (and the field when one is at
 * fault), in the wording below. A reader either stops at the first error
 * (`first`: ir-metrics, the trec engine) or reports every bad line and goes
 * on with the good ones (`all`: a collection's load, which `--strict` then
 * stops at its first error event).
 */

/** What a reader does with a bad line: stop there, or report it and read on. */
export type RunLinePolicy = 'first' | 'all';

/** Where the fields of a line are (their bounds in the buffer), with what a reader needs of them read on the way. */
export class RunLineFields {
  /** Fields on the line, up to six; 0 for a blank or comment line. */
  count = 0;
  topicStart = 0;
  topicEnd = 0;
  documentStart = 0;
  documentEnd = 0;
  /** The document id's hash (byte-string-table.ts), taken as the id is scanned so that no reader walks its bytes twice. */
  documentHash = 0;
  scoreStart = 0;
  scoreEnd = 0;
  /** The score as atof reads it, NaN when its text is no number. */
  score = 0;
  tagStart = 0;
  tagEnd = 0;
}

/**
 * Splits the line that starts at `position` (it ends with a newline, as
 * forEachLineRun hands lines over) into `fields`, and returns where the next
 * line starts. Counts fields up to six: a seventh and later are ignored.
 *
 * Run files have millions of lines and are read once, so this is written
 * for V8: one pass over the bytes with its state in local variables, the
 * document id hashed and a plain decimal score (digits with at most one
 * point, parse-number.ts's fast path) parsed as they are scanned; any other
 * score goes to parseNumberBytes.
 */
export function splitRunLine(buffer: Buffer, position: number, fields: RunLineFields): number {
  let at = position;
  let byte = buffer[at] as number;
  while (isSpaceByte(byte)) byte = buffer[++at] as number;
  if (byte === 10 || byte === 35) {
    fields.count = 0;
    while (byte !== 10) byte = buffer[++at] as number;
    return at + 1;
  }
  fields.topicStart = at;
  while (isFieldByte(byte)) byte = buffer[++at] as number;
  fields.topicEnd = at;
  let count = 1;
  for (; count < 6; count++) {
    while (isSpaceByte(byte)) byte = buffer[++at] as number;
    // Spaces skipped, the only byte that is no field byte is the newline: the line has no more fields.
    if (byte === 10) break;
    const start = at;
    if (count === 2) {
      let hash = HASH_SEED;
      while (isFieldByte(byte)) {
        hash = hashStep(hash, byte);
        byte = buffer[++at] as number;
      }
      fields.documentStart = start;
      fields.documentEnd = at;
      fields.documentHash = hash;
    } else if (count === 4) {
      const negative = byte === 45;
      if (negative) byte = buffer[++at] as number;
      let mantissa = 0;
      let digits = 0;
      let decimals = -1;
      for (;;) {
        if (byte >= 48 && byte <= 57) {
          mantissa = mantissa * 10 + (byte - 48);
          digits++;
          if (decimals >= 0) decimals++;
        } else if (byte === 46 && decimals < 0) {
          decimals = 0;
        } else {
          break;
        }
        byte = buffer[++at] as number;
      }
      const plain = digits > 0 && digits <= 15 && decimals <= 22 && !isFieldByte(byte);
      while (isFieldByte(byte)) byte = buffer[++at] as number;
      fields.scoreStart = start;
      fields.scoreEnd = at;
      if (plain) {
        const magnitude = decimals > 0 ? mantissa / (POWERS_OF_TEN[decimals] as number) : mantissa;
        fields.score = negative ? -magnitude : magnitude;
      } else {
        fields.score = parseNumberBytes(buffer, start, at);
      }
    } else {
      while (isFieldByte(byte)) byte = buffer[++at] as number;
      if (count === 5) {
        fields.tagStart = start;
        fields.tagEnd = at;
      }
    }
  }
  fields.count = count;
  while (byte !== 10) byte = buffer[++at] as number;
  return at + 1;
}

/** A line of fewer than six fields. */
export function tooFewFieldsError(file: string, line: number, count: number): InputError {
  return {
    file,
    line,
    message: `expected at least 6 fields "qid iter docno rank score tag", found ${count}`,
    fix: 'write one retrieved document per line as: topic-id Q0 document-id rank score run-tag',
  };
}

/** A score that is no number (or, where scores are stored as JSON, an infinite one). */
export function badScoreError(file: string, line: number, text: string): InputError {
  const infinite = !Number.isNaN(Number(text));
  return {
    file,
    line,
    field: 'score',
    message: `expected ${infinite ? 'a finite number' : 'a number'}, got "${text}"`,
    fix: 'give the retrieval score (higher is better) as a decimal number in the fifth column',
  };
}

/** A document a run lists twice for a topic: named by its run when the reader reads several runs at once. */
export function repeatedDocumentError(file: string, line: number, topic: string, document: string, run?: string): InputError {
  return {
    file,
    line,
    field: 'docno',
    message:
      run === undefined
        ? `topic ${topic} retrieves document ${document} twice`
        : `run ${run} retrieves document ${document} twice for topic ${topic}`,
    fix: 'keep one line per topic and document in each run',
  };
}

/** The text of the score field, as the errors quote it. */
export function scoreText(buffer: Buffer, fields: RunLineFields): string {
  return decodeField(buffer, fields.scoreStart, fields.scoreEnd);
}

/** What reading a run file line by line found: its rows (lines that are not blank or comments, good or bad) and its errors. */
export interface RunLinesRead {
  readonly rows: number;
  readonly errors: InputError[];
}

/**
 * Reads a run file line by line by the rule, with one error policy, and
 * hands each good line to `onLine` (its fields, its score and its number),
 * which may answer an error of its own (a repeated document). With `finite`,
 * an infinite score is an error too. `afterChunk` is awaited between chunks
 * of the file (a spill writes out there). I/O errors throw.
 */
export async function readRunFileLines(
  path: string,
  options: { readonly policy: RunLinePolicy; readonly finite: boolean; readonly afterChunk?: () => Promise<void> },
  onLine: (buffer: Buffer, fields: RunLineFields, score: number, line: number) => InputError | undefined,
): Promise<RunLinesRead> {
  const { policy, finite } = options;
  const fields = new RunLineFields();
  const errors: InputError[] = [];
  let rows = 0;
  let lineNumber = 0;
  await forEachLineRun(
    path,
    (buffer, start, end) => {
      let position = start;
      while (position < end && (policy === 'all' || errors.length === 0)) {
        position = splitRunLine(buffer, position, fields);
        lineNumber++;
        if (fields.count === 0) continue;
        rows++;
        if (fields.count < 6) {
          errors.push(tooFewFieldsError(path, lineNumber, fields.count));
          continue;
        }
        const score = fields.score;
        if (Number.isNaN(score) || (finite && !Number.isFinite(score))) {
          errors.push(badScoreError(path, lineNumber, scoreText(buffer, fields)));
          continue;
        }
        const error = onLine(buffer, fields, score, lineNumber);
        if (error !== undefined) errors.push(error);
      }
    },
    options.afterChunk,
  );
  return { rows, errors };
}
