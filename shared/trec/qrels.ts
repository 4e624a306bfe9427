import type { Result } from '../schema/result.js';
import type { InputError } from '../schema/input-error.js';
import { GRADE_ABOVE_LIMIT_FIX, gradeAboveLimit, MAX_GRADE } from '../schema/relevance-grade.js';
import { ByteStringTable, HASH_SEED, hashStep, type ByteStringTableParts } from './byte-string-table.js';
import { FileEncodingError } from '../readers/file-encoding.js';
import { encodingError } from '../readers/file-errors.js';
import { decodeField, endOfLine, forEachLineRun, isFieldByte, isSpaceByte, skipField, skipSpaces } from './byte-lines.js';
import { TopicEntries } from './repeated-field.js';
import { parseNumberBytes } from './parse-number.js';

/** The judgments of one topic: its judged document ids, their grades, and how many docs have each grade >= 0. */
export interface TopicJudgments {
  readonly documents: ByteStringTable;
  /** grades[id] = grade of document `id` of `documents`. */
  readonly grades: number[];
  /** gradeCounts[g] = judged documents with grade g; negative grades are not counted. */
  readonly gradeCounts: number[];
}

/** Judgments by topic id. */
export type Qrels = Map<string, TopicJudgments>;

export type QrelsResult = Result<Qrels, InputError>;

/**
 * Reads a TREC qrels file: one judgment a line, `qid iter docno grade`,
 * whitespace-separated, exactly four fields (the iter column is ignored).
 * Blank lines and lines starting with `#` are skipped. The grade is an
 * integer of at most MAX_GRADE; a negative grade marks a document judged but
 * to be ignored, as in trec_eval. The first malformed line, or a docno judged twice for one topic,
 * stops reading with an error naming the line.
 */
export async function readQrels(path: string): Promise<QrelsResult> {
  const reader = new QrelsReader(path);
  try {
    await forEachLineRun(path, (buffer, start, end) => reader.lines(buffer, start, end));
  } catch (error) {
    // A UTF-16 file, say, is the user's to convert: one error for the file as a whole. I/O errors throw.
    if (!(error instanceof FileEncodingError)) throw error;
    return { ok: false, error: encodingError(path, error) };
  }
  return reader.result();
}

/**
 * Line-by-line state of readQrels. Each line is scanned once, its four fields
 * unrolled as in the run reader: the qrels are read before any run, while
 * nothing is compiled yet, where a call per byte or per line costs most.
 */
class QrelsReader {
  private readonly qrels: Qrels = new Map();
  private readonly topicEntries = new TopicEntries<TopicJudgments>(this.qrels, emptyJudgments);
  private error: InputError | undefined;
  private lineNumber = 0;

  constructor(private readonly path: string) {}

  lines(buffer: Buffer, start: number, end: number): void {
    let position = this.scan(buffer, start, end);
    while (position < end && this.error === undefined) {
      position = this.line(buffer, position);
      if (this.error === undefined) position = this.scan(buffer, position, end);
    }
  }

  /**
   * Reads lines of the common shape (four fields, a plain integer grade, a
   * new document) from `position` in this one loop, with no call per field,
   * and returns where the first other line starts (a comment or blank line,
   * a line of another shape, an error), which `line` reads, or `end`. As in
   * the run reader: a single loop is what V8 optimises soonest, and the qrels
   * are read while nothing is optimised yet.
   */
  private scan(buffer: Buffer, start: number, end: number): number {
    let position = start;
    while (position < end) {
      const lineStart = position;
      let byte = buffer[position] as number;
      if (byte === 35 || !isFieldByte(byte)) return lineStart;
      const topicStart = position;
      while (isFieldByte(byte)) byte = buffer[++position] as number;
      const topicEnd = position;
      while (isSpaceByte(byte)) byte = buffer[++position] as number;
      while (isFieldByte(byte)) byte = buffer[++position] as number;
      while (isSpaceByte(byte)) byte = buffer[++position] as number;
      const documentStart = position;
      let hash = HASH_SEED;
      while (isFieldByte(byte)) {
        hash = hashStep(hash, byte);
        byte = buffer[++position] as number;
      }
      const documentEnd = position;
      while (isSpaceByte(byte)) byte = buffer[++position] as number;
      const negative = byte === 45;
      if (negative) byte = buffer[++position] as number;
      let grade = 0;
      let digits = 0;
      while (byte >= 48 && byte <= 57) {
        grade = grade * 10 + (byte - 48);
        digits++;
        byte = buffer[++position] as number;
      }
      while (isSpaceByte(byte)) byte = buffer[++position] as number;
      // Not four fields ending in a plain integer of a few digits, at most MAX_GRADE unless negative: the general path reads or rejects the line.
      if (byte !== 10 || digits === 0 || digits > 9 || (!negative && grade > MAX_GRADE)) return lineStart;
      const judgments = this.topicEntries.of(buffer, topicStart, topicEnd);
      // A document judged twice: the general path names it.
      if (judgments.documents.addHashed(buffer, documentStart, documentEnd, hash) < 0) return lineStart;
      this.lineNumber++;
      addGrade(judgments, negative ? -grade : grade);
      position++;
    }
    return position;
  }

  private line(buffer: Buffer, position: number): number {
    const lineNumber = ++this.lineNumber;
    // A `#` in the first column makes a comment line, as in trec_eval.
    if (buffer[position] === 35) return endOfLine(buffer, position) + 1;
    const topicStart = skipSpaces(buffer, position);
    if (buffer[topicStart] === 10) return topicStart + 1;
    const topicEnd = skipField(buffer, topicStart);
    const iterationStart = skipSpaces(buffer, topicEnd);
    if (buffer[iterationStart] === 10) return this.wrongFieldCount('1', lineNumber, iterationStart);
    const documentStart = skipSpaces(buffer, skipField(buffer, iterationStart));
    if (buffer[documentStart] === 10) return this.wrongFieldCount('2', lineNumber, documentStart);
    let hash = HASH_SEED;
    let documentEnd = documentStart;
    for (let byte = buffer[documentEnd] as number; isFieldByte(byte); byte = buffer[++documentEnd] as number) hash = hashStep(hash, byte);
    const gradeStart = skipSpaces(buffer, documentEnd);
    if (buffer[gradeStart] === 10) return this.wrongFieldCount('3', lineNumber, gradeStart);
    const gradeEnd = skipField(buffer, gradeStart);
    const after = skipSpaces(buffer, gradeEnd);
    if (buffer[after] !== 10) return this.wrongFieldCount('more', lineNumber, endOfLine(buffer, after));
    const grade = parseNumberBytes(buffer, gradeStart, gradeEnd);
    if (!Number.isInteger(grade)) {
      this.error = {
        file: this.path,
        line: lineNumber,
        field: 'grade',
        message: `expected an integer relevance grade, got "${decodeField(buffer, gradeStart, gradeEnd)}"`,
        fix: 'use 0 for not relevant and 1, 2, 3, ... for relevant grades',
      };
    } else if (grade > MAX_GRADE) {
      this.error = {
        file: this.path,
        line: lineNumber,
        field: 'grade',
        message: gradeAboveLimit(`"${decodeField(buffer, gradeStart, gradeEnd)}"`),
        fix: GRADE_ABOVE_LIMIT_FIX,
      };
    } else {
      const judgments = this.topicEntries.of(buffer, topicStart, topicEnd);
      if (judgments.documents.addHashed(buffer, documentStart, documentEnd, hash) >= 0) addGrade(judgments, grade);
      else {
        const topicId = this.topicEntries.topicId;
        const documentId = decodeField(buffer, documentStart, documentEnd);
        this.error = {
          file: this.path,
          line: lineNumber,
          field: 'docno',
          message: `topic ${topicId} judges document ${documentId} twice`,
          fix: `keep one judgment of ${documentId} for topic ${topicId}`,
        };
      }
    }
    return after + 1;
  }

  private wrongFieldCount(found: string, lineNumber: number, newline: number): number {
    this.error = {
      file: this.path,
      line: lineNumber,
      message: `expected 4 fields "qid iter docno grade", found ${found}`,
      fix: 'write one judgment per line as: topic-id 0 document-id grade',
    };
    return newline + 1;
  }

  result(): QrelsResult {
    return this.error === undefined ? { ok: true, value: this.qrels } : { ok: false, error: this.error };
  }
}

function emptyJudgments(): TopicJudgments {
  return { documents: new ByteStringTable(), grades: [], gradeCounts: [] };
}

function addGrade(judgments: TopicJudgments, grade: number): void {
  judgments.grades.push(grade);
  if (grade >= 0) {
    const counts = judgments.gradeCounts;
    while (counts.length <= grade) counts.push(0);
    counts[grade] = (counts[grade] as number) + 1;
  }
}

/** Judgments built in code (tests, callers holding a Map); throws on a repeated id, which a Map cannot hold anyway, and on a grade above MAX_GRADE. */
export function topicJudgmentsOf(grades: Iterable<readonly [documentId: string, grade: number]>): TopicJudgments {
  const judgments = emptyJudgments();
  for (const [documentId, grade] of grades) {
    if (grade > MAX_GRADE) throw new RangeError(`Document ${documentId}: ${gradeAboveLimit(grade)}`);
    if (judgments.documents.addText(documentId) < 0) throw new Error(`Document ${documentId} is judged twice`);
    addGrade(judgments, grade);
  }
  return judgments;
}

/** The grades of a topic as a Map, for reading and tests. */
export function gradesByDocument(judgments: TopicJudgments): Map<string, number> {
  return new Map(judgments.documents.texts().map((documentId, id) => [documentId, judgments.grades[id] as number]));
}

/** Qrels as plain data that a structured clone keeps whole: how they reach a worker thread without being read again. */
export type QrelsParts = readonly (readonly [topicId: string, documents: ByteStringTableParts, grades: number[], gradeCounts: number[]])[];

export function qrelsToParts(qrels: Qrels): QrelsParts {
  return [...qrels].map(([topicId, judgments]) => [topicId, judgments.documents.toParts(), judgments.grades, judgments.gradeCounts]);
}

export function qrelsFromParts(parts: QrelsParts): Qrels {
  return new Map(
    parts.map(([topicId, documents, grades, gradeCounts]) => [
      topicId,
      { documents: ByteStringTable.fromParts(documents), grades, gradeCounts },
    ]),
  );
}
