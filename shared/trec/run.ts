import type { InputError } from '../schema/input-error.js';
import { decodeField, endOfLine, forEachLineRun, isFieldByte, skipField, skipSpaces } from './byte-lines.js';
import { RepeatedField, TopicEntries } from './repeated-field.js';
import { ByteStringTable, HASH_SEED, hashStep } from './byte-string-table.js';
import { parseNumberBytes } from './parse-number.js';

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
  private readonly topicEntries = new TopicEntries<TopicRun>(this.topics, () => ({ documents: new ByteStringTable(1024), scores: [] }));
  private readonly tagField = new RepeatedField();
  private error: InputError | undefined;
  private lineNumber = 0;
  /** Where the tag of the chunk's last document line is, -1 when there is none yet. */
  private tagStart = 0;
  private tagEnd = -1;

  constructor(private readonly path: string) {}

  /** Reads the whole lines of `buffer[start, end)`, up to the first bad one. */
  lines(buffer: Buffer, start: number, end: number): void {
    let position = start;
    this.tagEnd = -1;
    while (position < end && this.error === undefined) position = this.line(buffer, position);
    // Only the last line's tag counts: it is read once per chunk, not once per line.
    if (this.tagEnd !== -1 && this.error === undefined) this.tagField.update(buffer, this.tagStart, this.tagEnd);
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
    } else if (this.topicEntries.of(buffer, topicStart, topicEnd).documents.addHashed(buffer, documentStart, documentEnd, hash) < 0) {
      this.error = {
        file: this.path,
        line: lineNumber,
        field: 'docno',
        message: `topic ${this.topicEntries.topicId} retrieves document ${decodeField(buffer, documentStart, documentEnd)} twice`,
        fix: `keep one line per topic and document`,
      };
    } else {
      (this.topicEntries.current as TopicRun).scores.push(score);
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
