import type { InputError } from '../schema/input-error.js';
import { decodeField } from '../trec/byte-lines.js';
import { RepeatedField } from '../trec/repeated-field.js';
import { readRunFileLines, scoreText } from '../trec/run-line.js';

/** What reading one run file found: its lines, their errors, and its tags in the order it first uses them. */
export interface RunFileLines {
  readonly rows: number;
  readonly errors: InputError[];
  readonly tags: string[];
}

/** Where readRunLines puts each good line: a run's spill (TrecRunSpill), its topics' lists in memory (TopicLists), or the trec engine's run. */
export interface RunLineSink {
  /** Whether add needs each score as written (the spill copies it), or the number alone does. */
  readonly keepsScoreText: boolean;
  /** One line: its tag numbered in the order the file first uses it, its score as the number it is and (when kept) as written. */
  add(qid: string, tag: number, docno: string, score: number, line: number, scoreText: string | undefined): void;
  /** Called between chunks of the file. */
  flushIfFull(): Promise<void>;
}

/**
 * Streams a TREC run file of a collection into `sink`, by the run-line rule
 * (shared/trec/run-line.ts) with its `all` policy: every bad line is an
 * error, and reading goes on with the good ones. Scores must be finite (a
 * case stores them as JSON). Repeated documents are the sink's to find: a
 * collection's runs are its tags, named only once all its files are read.
 * The topic id and the tag are decoded only when they change from line to
 * line; I/O errors throw.
 */
export async function readRunLines(file: string, sink: RunLineSink): Promise<RunFileLines> {
  const tags: string[] = [];
  const tagNumbers = new Map<string, number>();
  const topic = new RepeatedField();
  const tag = new RepeatedField();
  let tagNumber = 0;
  const keepsScoreText = sink.keepsScoreText;
  const { rows, errors } = await readRunFileLines(
    file,
    { policy: 'all', finite: true, afterChunk: () => sink.flushIfFull() },
    (buffer, fields, score, line) => {
      topic.update(buffer, fields.topicStart, fields.topicEnd);
      if (tag.update(buffer, fields.tagStart, fields.tagEnd)) {
        let number = tagNumbers.get(tag.text);
        if (number === undefined) {
          number = tags.push(tag.text) - 1;
          tagNumbers.set(tag.text, number);
        }
        tagNumber = number;
      }
      sink.add(
        topic.text,
        tagNumber,
        decodeField(buffer, fields.documentStart, fields.documentEnd),
        score,
        line,
        keepsScoreText ? scoreText(buffer, fields) : undefined,
      );
      return undefined;
    },
  );
  return { rows, errors, tags };
}
