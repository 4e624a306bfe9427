import type { InputError } from '../schema/input-error.js';
import { decodeField, forEachLineBytes, isBlankOrCommentBytes, scanFields } from './line-reader.js';
import { ByteStringTable } from './byte-string-table.js';
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
  await forEachLineBytes(path, (buffer, start, end, lineNumber) => reader.line(buffer, start, end, lineNumber));
  return reader.result();
}

/** Line-by-line state of readRun, kept in an object: closures over mutated variables are slower in V8. */
class RunReader {
  private readonly topics = new Map<string, TopicRun>();
  private readonly topicField = new RepeatedField();
  private readonly tagField = new RepeatedField();
  private readonly bounds = new Int32Array(12);
  private current: TopicRun | undefined;
  private error: InputError | undefined;

  constructor(private readonly path: string) {}

  line(buffer: Buffer, start: number, end: number, lineNumber: number): void {
    if (this.error !== undefined || isBlankOrCommentBytes(buffer, start, end)) return;
    const bounds = this.bounds;
    const fieldCount = scanFields(buffer, start, end, 6, bounds);
    if (fieldCount < 6) {
      this.error = {
        file: this.path,
        line: lineNumber,
        message: `expected at least 6 fields "qid iter docno rank score tag", found ${fieldCount}`,
        fix: 'write one retrieved document per line as: topic-id Q0 document-id rank score run-tag',
      };
      return;
    }
    const score = parseNumberBytes(buffer, bounds[8] as number, bounds[9] as number);
    if (Number.isNaN(score)) {
      this.error = {
        file: this.path,
        line: lineNumber,
        field: 'score',
        message: `expected a number, got "${decodeField(buffer, bounds[8] as number, bounds[9] as number)}"`,
        fix: 'put the retrieval score (higher is better) in the fifth column',
      };
      return;
    }
    let current = this.current;
    if (this.topicField.update(buffer, bounds[0] as number, bounds[1] as number) || current === undefined) {
      const topicId = this.topicField.text;
      current = this.topics.get(topicId);
      if (current === undefined) {
        current = { documents: new ByteStringTable(1024), scores: [] };
        this.topics.set(topicId, current);
      }
      this.current = current;
    }
    if (current.documents.add(buffer, bounds[4] as number, bounds[5] as number) < 0) {
      const documentId = decodeField(buffer, bounds[4] as number, bounds[5] as number);
      this.error = {
        file: this.path,
        line: lineNumber,
        field: 'docno',
        message: `topic ${this.topicField.text} retrieves document ${documentId} twice`,
        fix: `keep one line per topic and document`,
      };
      return;
    }
    current.scores.push(score);
    this.tagField.update(buffer, bounds[10] as number, bounds[11] as number);
  }

  result(): RunResult {
    if (this.error !== undefined) return { ok: false, error: this.error };
    return { ok: true, run: { topics: this.topics, runId: this.tagField.text } };
  }
}

/**
 * A field that usually repeats from line to line (the topic id, the run tag):
 * decoded only when its bytes change, so a 10-million-line run makes a few
 * thousand strings for it instead of ten million.
 */
class RepeatedField {
  private bytes = new Uint8Array(0);
  text = '';

  /** Returns true when the field differs from the previous line's. */
  update(buffer: Buffer, start: number, end: number): boolean {
    if (this.matches(buffer, start, end)) return false;
    this.bytes = buffer.slice(start, end);
    this.text = decodeField(buffer, start, end);
    return true;
  }

  // A plain loop: Buffer.compare's native call costs more than comparing a few bytes.
  private matches(buffer: Buffer, start: number, end: number): boolean {
    const bytes = this.bytes;
    if (end - start !== bytes.length) return false;
    for (let index = 0; index < bytes.length; index++) {
      if (bytes[index] !== buffer[start + index]) return false;
    }
    return true;
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
