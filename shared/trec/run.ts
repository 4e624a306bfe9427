import type { InputError } from '../schema/input-error.js';
import { decodeField, forEachLineRun, isFieldByte, isSpaceByte } from './byte-lines.js';
import { RepeatedField } from './repeated-field.js';
import { ByteStringTable, HASH_SEED, hashStep } from './byte-string-table.js';
import { POWERS_OF_TEN } from './parse-number.js';
import { badScoreError, repeatedDocumentError, RunLineFields, runScore, scoreText, splitRunLine, tooFewFieldsError } from './run-line.js';

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
 * Reads a TREC run file by the run-line rule (run-line.ts), stopping at the
 * first error (its `first` policy): the first malformed line, or a document
 * retrieved twice for one topic, ends reading with an error naming the line.
 * The rank column is read past but not used: ranking is by score (see
 * rank-topic.ts). `assay ir-metrics` reads a run file here when the
 * WebAssembly kernel (run-kernel.ts) leaves it, and `assay agreement` always.
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
  private readonly fields = new RunLineFields();

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
   * The rule's fast path in JavaScript: reads lines of the common shape (six
   * or more fields, a plain decimal score, a new document) from `position`, each scanned, hashed and parsed
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
      const topic =
        previous !== undefined && this.topicField.matches(buffer, topicStart, topicEnd)
          ? previous
          : this.topicOf(buffer, topicStart, topicEnd);
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

  /** Reads the line that starts at `position` by the run-line rule (run-line.ts), and returns where the next one starts. */
  private line(buffer: Buffer, position: number): number {
    const lineNumber = ++this.lineNumber;
    const fields = this.fields;
    const next = splitRunLine(buffer, position, fields);
    if (fields.count === 0) return next;
    if (fields.count < 6) {
      this.error = tooFewFieldsError(this.path, lineNumber, fields.count);
      return next;
    }
    const score = runScore(buffer, fields);
    if (Number.isNaN(score)) {
      this.error = badScoreError(this.path, lineNumber, scoreText(buffer, fields));
      return next;
    }
    const { documentStart, documentEnd } = fields;
    let hash = HASH_SEED;
    for (let index = documentStart; index < documentEnd; index++) hash = hashStep(hash, buffer[index] as number);
    if (this.topicOf(buffer, fields.topicStart, fields.topicEnd).documents.addHashed(buffer, documentStart, documentEnd, hash) < 0) {
      this.error = repeatedDocumentError(this.path, lineNumber, this.topicField.text, decodeField(buffer, documentStart, documentEnd));
      return next;
    }
    (this.topic as TopicRun).scores.push(score);
    this.tagStart = fields.tagStart;
    this.tagEnd = fields.tagEnd;
    return next;
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
