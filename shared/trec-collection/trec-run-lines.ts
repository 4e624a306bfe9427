import type { InputError } from '../schema/input-error.js';
import { readTextChunks } from '../readers/text-chunks.js';
import { isWhitespace, scanTrecFields } from './trec-fields.js';
import { POWERS_OF_TEN } from '../trec/parse-number.js';

const RUN_LINE = 'write each result as: topic-id Q0 document-id rank score run-tag (e.g. "301 Q0 FBIS3-10082 1 12.5 bm25")';

/** What reading one run file found: its lines, their errors, and its tags in the order it first uses them. */
export interface RunFileLines {
  readonly rows: number;
  readonly errors: InputError[];
  readonly tags: string[];
}

/** Where readRunLines puts each good line: a run's spill (TrecRunSpill), or its topics' lists in memory (TopicLists). */
export interface RunLineSink {
  /** Whether add needs each score as written (the spill copies it), or the number alone does. */
  readonly keepsScoreText: boolean;
  /** One line: its tag numbered in the order the file first uses it, its score as the number it is and (when kept) as written. */
  add(qid: string, tag: number, docno: string, score: number, line: number, scoreText: string | undefined): void;
  /** Called between chunks of the file. */
  flushIfFull(): Promise<void>;
}

/**
 * Streams a TREC run file (`qid Q0 docno rank score tag`, extra fields ignored
 * as trec_eval does) into `sink`, with the same line checks as readRun
 * (trec-run-reader.ts); repeated documents are the sink's to find. Lines are
 * handled chunk by chunk rather than one awaited line at a time: run files
 * have millions of lines.
 */
export async function readRunLines(file: string, sink: RunLineSink): Promise<RunFileLines> {
  const reader = new RunLineReader(file, sink);
  let rest = '';
  for await (const chunk of readTextChunks(file)) {
    let start = 0;
    const newline = chunk.indexOf('\n');
    if (newline !== -1 && rest !== '') {
      reader.line(rest + chunk.slice(0, newline));
      rest = '';
      start = newline + 1;
    }
    const end = chunk.lastIndexOf('\n') + 1;
    if (start < end) reader.lines(chunk, start, end);
    rest += chunk.slice(Math.max(start, end));
    await sink.flushIfFull();
  }
  if (rest !== '') reader.line(rest);
  return reader.result();
}

/**
 * The line-by-line state of readRunLines, kept in an object (closures over
 * mutated variables are slower in V8). Lines of the common shape, single
 * spaces between their fields, are read in one loop that finds the spaces
 * with indexOf and makes a string only of what changes from line to line;
 * any other line goes through scanTrecFields, with the same result.
 */
class RunLineReader {
  private readonly errors: InputError[] = [];
  private readonly tags: string[] = [];
  private readonly tagNumbers = new Map<string, number>();
  private rows = 0;
  private lineNumber = 0;
  /** The last topic id and tag, and the tag's number: a run file repeats them on line after line. */
  private lastQid = '';
  private lastTag: string | undefined;
  private lastNumber = 0;
  private readonly bounds = new Int32Array(12);

  constructor(
    private readonly file: string,
    private readonly sink: RunLineSink,
  ) {}

  result(): RunFileLines {
    return { rows: this.rows, errors: this.errors, tags: this.tags };
  }

  /** The whole lines of `chunk[start, end)`, `end` just past a line end. */
  lines(chunk: string, start: number, end: number): void {
    const keepsScoreText = this.sink.keepsScoreText;
    let from = start;
    while (from < end) {
      // One pass over the line: the ends of its first six fields, as long as single spaces alone separate them.
      let index = from;
      let spaces = 0;
      let qidEnd = 0;
      let iterationEnd = 0;
      let docnoEnd = 0;
      let rankEnd = 0;
      let scoreEnd = 0;
      let tagEnd = 0;
      let afterSpace = true;
      let usual = true;
      for (; ; index++) {
        const code = chunk.charCodeAt(index);
        if (code > 32) {
          if (code >= 0xa0 && isWhitespace(code)) usual = false;
          afterSpace = false;
          continue;
        }
        if (code === 10) break;
        if (code !== 32 || afterSpace) usual = false;
        afterSpace = true;
        spaces++;
        if (spaces === 1) qidEnd = index;
        else if (spaces === 2) iterationEnd = index;
        else if (spaces === 3) docnoEnd = index;
        else if (spaces === 4) rankEnd = index;
        else if (spaces === 5) scoreEnd = index;
        else if (spaces === 6) tagEnd = index;
      }
      const newline = index;
      if (newline === from) {
        this.lineNumber += 1;
        from = newline + 1;
        continue;
      }
      if (!usual || afterSpace || spaces < 5) {
        // Other spacing, or fewer than six fields (an error that names the count): as any line is read.
        this.line(chunk.slice(from, newline));
        from = newline + 1;
        continue;
      }
      if (spaces === 5) tagEnd = newline;
      this.lineNumber += 1;
      this.rows += 1;
      let score = parseDecimal(chunk, rankEnd + 1, scoreEnd);
      let scoreText: string | undefined;
      if (Number.isNaN(score) || keepsScoreText) {
        scoreText = chunk.slice(rankEnd + 1, scoreEnd);
        score = Number(scoreText);
        if (!Number.isFinite(score)) {
          this.badScore(scoreText);
          from = newline + 1;
          continue;
        }
      }
      const qid = qidEnd - from === this.lastQid.length && chunk.startsWith(this.lastQid, from) ? this.lastQid : (this.lastQid = chunk.slice(from, qidEnd));
      const tag = this.lastTag;
      if (tag === undefined || tagEnd - scoreEnd - 1 !== tag.length || !chunk.startsWith(tag, scoreEnd + 1)) this.tagNumberOf(chunk.slice(scoreEnd + 1, tagEnd));
      this.sink.add(qid, this.lastNumber, chunk.slice(iterationEnd + 1, docnoEnd), score, this.lineNumber, scoreText);
      from = newline + 1;
    }
  }

  /** One line, whatever its spacing. */
  line(text: string): void {
    this.lineNumber += 1;
    const bounds = this.bounds;
    const count = scanTrecFields(text, bounds);
    if (count === 0) return;
    this.rows += 1;
    if (count < 6) {
      this.errors.push({ file: this.file, line: this.lineNumber, message: `expected 6 fields (qid Q0 docno rank score tag), got ${count}`, fix: RUN_LINE });
      return;
    }
    const field = (index: number): string => text.slice(bounds[2 * index], bounds[2 * index + 1]);
    const scoreText = field(4);
    // The scanned field is never empty nor padded, so Number alone decides (parseTrecScore also trims).
    const score = Number(scoreText);
    if (!Number.isFinite(score)) {
      this.badScore(scoreText);
      return;
    }
    const qid = field(0);
    this.lastQid = qid;
    this.tagNumberOf(field(5));
    this.sink.add(qid, this.lastNumber, field(2), score, this.lineNumber, scoreText);
  }

  private badScore(scoreText: string): void {
    this.errors.push({ file: this.file, line: this.lineNumber, field: 'score', message: `expected a finite number, got "${scoreText}"`, fix: 'give the score as a decimal number' });
  }

  /** Makes `tag` the last tag, numbered in the order the file first uses it. */
  private tagNumberOf(tag: string): void {
    if (tag === this.lastTag) return;
    this.lastTag = tag;
    let number = this.tagNumbers.get(tag);
    if (number === undefined) {
      number = this.tags.push(tag) - 1;
      this.tagNumbers.set(tag, number);
    }
    this.lastNumber = number;
  }
}

/**
 * The number `text[start, end)` writes, when it is a plain decimal of at most
 * 15 digits (an optional sign, digits, at most one point): the one correctly
 * rounded division of two exact doubles (Clinger's fast path), the double
 * Number() gives. NaN for anything else, which Number() itself then reads.
 */
function parseDecimal(text: string, start: number, end: number): number {
  let index = start;
  const sign = text.charCodeAt(index);
  if (sign === 45 || sign === 43) index++;
  let mantissa = 0;
  let digits = 0;
  let decimals = 0;
  let seenPoint = false;
  for (; index < end; index++) {
    const code = text.charCodeAt(index);
    if (code >= 48 && code <= 57) {
      mantissa = mantissa * 10 + (code - 48);
      digits++;
      if (seenPoint) decimals++;
    } else if (code === 46 && !seenPoint) {
      seenPoint = true;
    } else {
      return Number.NaN;
    }
  }
  if (digits === 0 || digits > 15) return Number.NaN;
  const value = mantissa / (POWERS_OF_TEN[decimals] as number);
  return sign === 45 ? -value : value;
}
