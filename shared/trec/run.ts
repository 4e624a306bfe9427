import type { InputError } from '../schema/input-error.js';
import type { Result } from '../schema/result.js';
import { FileEncodingError } from '../readers/file-encoding.js';
import { encodingError } from '../readers/file-errors.js';
import { decodeField, forEachLineRun } from './byte-lines.js';
import { ByteStringTable } from './byte-string-table.js';
import { RepeatedField } from './repeated-field.js';
import { badScoreError, RunLineFields, repeatedDocumentError, scoreText, splitRunLine, tooFewFieldsError } from './run-line.js';

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

export type RunResult = Result<Run, InputError>;

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
 * Line-by-line state of readRun, kept in an object: closures over mutated
 * variables are slower in V8. Each line is split once by the rule's
 * splitRunLine, which hashes the docno and parses the score on the way.
 */
class RunReader {
  private readonly topics = new Map<string, TopicRun>();
  private readonly topicField = new RepeatedField();
  /** The topic of the last line read. */
  private topic: TopicRun | undefined;
  private readonly tagField = new RepeatedField();
  private error: InputError | undefined;
  private lineNumber = 0;
  private readonly fields = new RunLineFields();

  constructor(private readonly path: string) {}

  /** Reads the whole lines of `buffer[start, end)`, up to the first bad one. */
  lines(buffer: Buffer, start: number, end: number): void {
    if (this.error !== undefined) return;
    const fields = this.fields;
    // Where the tag of the chunk's last document line is, -1 while there is none.
    let tagStart = 0;
    let tagEnd = -1;
    let position = start;
    while (position < end) {
      position = splitRunLine(buffer, position, fields);
      const lineNumber = ++this.lineNumber;
      if (fields.count === 0) continue;
      if (fields.count < 6) {
        this.error = tooFewFieldsError(this.path, lineNumber, fields.count);
        return;
      }
      const score = fields.score;
      if (Number.isNaN(score)) {
        this.error = badScoreError(this.path, lineNumber, scoreText(buffer, fields));
        return;
      }
      // The same topic as the line before, most of the time: checked here, where V8 inlines the check.
      const previous = this.topic;
      const topic =
        previous !== undefined && this.topicField.matches(buffer, fields.topicStart, fields.topicEnd)
          ? previous
          : this.topicOf(buffer, fields.topicStart, fields.topicEnd);
      const { documentStart, documentEnd } = fields;
      if (topic.documents.addHashed(buffer, documentStart, documentEnd, fields.documentHash) < 0) {
        this.error = repeatedDocumentError(this.path, lineNumber, this.topicField.text, decodeField(buffer, documentStart, documentEnd));
        return;
      }
      topic.scores.push(score);
      tagStart = fields.tagStart;
      tagEnd = fields.tagEnd;
    }
    // Only the last document line's tag counts: it is read once per chunk, not once per line.
    if (tagEnd !== -1) this.tagField.update(buffer, tagStart, tagEnd);
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

  result(): RunResult {
    if (this.error !== undefined) return { ok: false, error: this.error };
    return { ok: true, value: { topics: this.topics, runId: this.tagField.text } };
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
