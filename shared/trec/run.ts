import type { InputError } from '../schema/input-error.js';
import { decodeField, endOfLine, forEachLineRun, isFieldByte, isSpaceByte, skipField, skipSpaces } from './byte-lines.js';
import { RepeatedField } from './repeated-field.js';
import { ByteStringTable, HASH_SEED, hashStep } from './byte-string-table.js';
import { parseNumberBytes, POWERS_OF_TEN } from './parse-number.js';

/** One topic's retrieved documents, in file order (ranking happens later). */
export interface TopicRun {
  /** Document ids in file order: id i is the i-th line of the topic. */
  readonly documents: ByteStringTable;
  /** scores[i] = score of document i. */
  readonly scores: number[];
}

export interface Run {
  readonly topics: Map<string, TopicRun>;
  /** The run tag of the last line, which is what trec_eval reports as runid. */
  readonly runId: string;
}

export type RunResult = { ok: true; run: Run } | { ok: false; error: InputError };

/**
 * Reads a TREC run file: `qid iter docno rank score tag`, whitespace-separated,
 * anything after the tag ignored (as trec_eval does). The rank column is read
 * past but not used: ranking is by score (see rank-topic.ts). Blank lines and
 * lines starting with `#` are skipped. The first malformed line, or a
 * document retrieved twice for one topic, stops reading with an error naming
 * the line.
 *
 * Document ids stay bytes (byte-string-table.ts) and the topic id is decoded
 * only when it changes, because run files have millions of lines.
 */
export async function readRun(path: string): Promise<RunResult> {
  const reader = new RunReader(path);
  await forEachLineRun(path, (buffer, start, end) => reader.lines(buffer, start, end));
  return reader.result();
}

/**
 * Line-by-line state of readRun, kept in an object: closures over mutated
 * variables are slower in V8. Each line is scanned once, byte by byte: its
 * fields are found, the docno hashed and the end of the line reached in the
 * same pass, which is most of the time ir-metrics spends on a run.
 */
class RunReader {
  private readonly topics = new Map<string, TopicRun>();
  private readonly topicField = new RepeatedField();
  /** The topic of the last line read. */
  private topic: TopicRun | undefined;
  private readonly tagField = new RepeatedField();
  private error: InputError | undefined;
  private lineNumber = 0;
  /** Where the tag of the chunk's last document line is, -1 when there is none yet. */
  private tagStart = 0;
  private tagEnd = -1;

  constructor(private readonly path: string) {}

  /** Reads the whole lines of `buffer[start, end)`, up to the first bad one. */
  lines(buffer: Buffer, start: number, end: number): void {
    this.tagEnd = -1;
    let position = this.scan(buffer, start, end);
    while (position < end && this.error === undefined) {
      position = this.line(buffer, position);
      if (this.error === undefined) position = this.scan(buffer, position, end);
    }
    // Only the last document line's tag counts: it is read once per chunk, not once per line.
    if (this.tagEnd !== -1 && this.error === undefined) this.tagField.update(buffer, this.tagStart, this.tagEnd);
  }

  /**
   * Reads lines of the common shape (six or more fields, a plain decimal
   * score, a new document) from `position`, each scanned, hashed and parsed
   * in this one loop with no call per field or per line, and returns where
   * the first other line starts (a comment or blank line, a short line, an
   * exponent in the score, an error), which `line` reads, or `end`.
   * A loop that does nothing else and keeps its state in local variables is
   * what V8 optimises soonest and never has to give up: a run file is read
   * once, so the time before the optimised code runs counts as much as the
   * code.
   */
  private scan(buffer: Buffer, start: number, end: number): number {
    let position = start;
    while (position < end) {
      const lineStart = position;
      let byte = buffer[position] as number;
      // Every field must start with a field byte: a comment (#), a leading space or a blank line takes the general path.
      if (byte === 35 || !isFieldByte(byte)) return lineStart;
      const topicStart = position;
      while (isFieldByte(byte)) byte = buffer[++position] as number;
      const topicEnd = position;
      if (byte === 10) return lineStart;
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
      while (isFieldByte(byte)) byte = buffer[++position] as number;
      while (isSpaceByte(byte)) byte = buffer[++position] as number;
      // The score, parsed as it is scanned when it is plain decimal digits with at most one point (parse-number.ts's fast path).
      const scoreStart = position;
      const negative = byte === 45;
      if (negative) byte = buffer[++position] as number;
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
        byte = buffer[++position] as number;
      }
      const scoreEnd = position;
      const plainScore = digits > 0 && digits <= 15 && decimals <= 22 && !isFieldByte(byte);
      while (isSpaceByte(byte)) byte = buffer[++position] as number;
      // Not a plain score, or fewer than six fields (a field ended at the newline): the general path reads or rejects the line.
      if (!plainScore || byte === 10 || documentEnd === documentStart) return lineStart;
      const lineTagStart = position;
      while (isFieldByte(byte)) byte = buffer[++position] as number;
      const lineTagEnd = position;
      while (byte !== 10) byte = buffer[++position] as number;
      // The same topic as the line before, most of the time: checked here, where V8 inlines the check.
      const previous = this.topic;
      const topic = previous !== undefined && this.topicField.matches(buffer, topicStart, topicEnd) ? previous : this.topicOf(buffer, topicStart, topicEnd);
      // A document retrieved twice: the general path names it.
      if (topic.documents.addHashed(buffer, documentStart, documentEnd, hash) < 0) return lineStart;
      this.lineNumber++;
      const magnitude = decimals > 0 ? mantissa / (POWERS_OF_TEN[decimals] as number) : mantissa;
      topic.scores.push(negative ? -magnitude : magnitude);
      this.tagStart = lineTagStart;
      this.tagEnd = lineTagEnd;
      position++;
    }
    return position;
  }

  /** The entry of a line's topic: the previous line's while the topic id's bytes stay the same. */
  private topicOf(buffer: Buffer, start: number, end: number): TopicRun {
    let topic = this.topic;
    if (this.topicField.update(buffer, start, end) || topic === undefined) {
      topic = this.topics.get(this.topicField.text);
      if (topic === undefined) {
        topic = { documents: new ByteStringTable(1024), scores: [] };
        this.topics.set(this.topicField.text, topic);
      }
      this.topic = topic;
    }
    return topic;
  }

  /**
   * Reads the line that starts at `position` and returns where the next one
   * starts. The line ends with a newline (forEachLineRun's promise), which
   * stops every scan below. The six fields are scanned one after another,
   * unrolled, so their bounds stay in local variables.
   */
  private line(buffer: Buffer, position: number): number {
    const lineNumber = ++this.lineNumber;
    // A `#` in the first column makes a comment line, as in trec_eval.
    if (buffer[position] === 35) return endOfLine(buffer, position) + 1;
    const topicStart = skipSpaces(buffer, position);
    if (buffer[topicStart] === 10) return topicStart + 1;
    const topicEnd = skipField(buffer, topicStart);
    const iterationStart = skipSpaces(buffer, topicEnd);
    if (buffer[iterationStart] === 10) return this.tooFewFields(1, lineNumber, iterationStart);
    const documentStart = skipSpaces(buffer, skipField(buffer, iterationStart));
    if (buffer[documentStart] === 10) return this.tooFewFields(2, lineNumber, documentStart);
    let hash = HASH_SEED;
    let documentEnd = documentStart;
    for (let byte = buffer[documentEnd] as number; isFieldByte(byte); byte = buffer[++documentEnd] as number) hash = hashStep(hash, byte);
    const rankStart = skipSpaces(buffer, documentEnd);
    if (buffer[rankStart] === 10) return this.tooFewFields(3, lineNumber, rankStart);
    const scoreStart = skipSpaces(buffer, skipField(buffer, rankStart));
    if (buffer[scoreStart] === 10) return this.tooFewFields(4, lineNumber, scoreStart);
    const scoreEnd = skipField(buffer, scoreStart);
    const tagStart = skipSpaces(buffer, scoreEnd);
    if (buffer[tagStart] === 10) return this.tooFewFields(5, lineNumber, tagStart);
    const tagEnd = skipField(buffer, tagStart);
    const score = parseNumberBytes(buffer, scoreStart, scoreEnd);
    if (Number.isNaN(score)) {
      this.error = {
        file: this.path,
        line: lineNumber,
        field: 'score',
        message: `expected a number, got "${decodeField(buffer, scoreStart, scoreEnd)}"`,
        fix: 'put the retrieval score (higher is better) in the fifth column',
      };
    } else if (this.topicOf(buffer, topicStart, topicEnd).documents.addHashed(buffer, documentStart, documentEnd, hash) < 0) {
      this.error = {
        file: this.path,
        line: lineNumber,
        field: 'docno',
        message: `topic ${this.topicField.text} retrieves document ${decodeField(buffer, documentStart, documentEnd)} twice`,
        fix: `keep one line per topic and document`,
      };
    } else {
      (this.topic as TopicRun).scores.push(score);
      this.tagStart = tagStart;
      this.tagEnd = tagEnd;
    }
    return endOfLine(buffer, tagEnd) + 1;
  }

  private tooFewFields(fieldCount: number, lineNumber: number, index: number): number {
    this.error = {
      file: this.path,
      line: lineNumber,
      message: `expected at least 6 fields "qid iter docno rank score tag", found ${fieldCount}`,
      fix: 'write one retrieved document per line as: topic-id Q0 document-id rank score run-tag',
    };
    return index + 1;
  }

  result(): RunResult {
    if (this.error !== undefined) return { ok: false, error: this.error };
    return { ok: true, run: { topics: this.topics, runId: this.tagField.text } };
  }
}

/** A topic run built in code (tests, callers holding lists); throws on a repeated id. */
export function topicRunOf(lines: Iterable<readonly [documentId: string, score: number]>): TopicRun {
  const run: TopicRun = { documents: new ByteStringTable(), scores: [] };
  for (const [documentId, score] of lines) {
    if (run.documents.addText(documentId) < 0) throw new Error(`Document ${documentId} is retrieved twice`);
    run.scores.push(score);
  }
  return run;
}
