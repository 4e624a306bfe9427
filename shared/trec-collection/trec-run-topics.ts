import { readOrReport } from './trec-inputs.js';
import { readRunLines, type RunLineSink } from './trec-run-lines.js';
import type { RepeatedDocument, RunFileTopics, TopicRanking } from './run-file-topics.js';
import { inTrecOrder } from './trec-ranking.js';
import { kernelRunTopics } from './run-topics-kernel.js';

export type { RepeatedDocument, RunFileTopics, TopicRanking } from './run-file-topics.js';

/** Reads a collection's run files (index = position) into their topics: one after another, or several at once. */
export type RunTopicsReader = (runs: readonly string[]) => Promise<RunFileTopics[]>;

/** The run files read one after another, in this thread. */
export const readRunTopicsInTurn: RunTopicsReader = async (runs) => {
  const read: RunFileTopics[] = [];
  for (const file of runs) read.push(await readRunTopics(file));
  return read;
};

/**
 * One run file's topics (RunFileTopics): by the WebAssembly kernel when the
 * file is of the common shape, else by readRunLines (the run-line rule of
 * shared/trec/run-line.ts, every bad line an error); a file that cannot be
 * read is one error.
 */
export async function readRunTopics(file: string): Promise<RunFileTopics> {
  return readOrReport(file, async (path) => kernelRunTopics(path) ?? (await scriptRunTopics(path)), {
    rows: 0,
    errors: [],
    tags: [],
    repeats: [],
    rankings: [],
    json: new Uint8Array(0),
  });
}

/** readRunTopics by readRunLines alone, for any file (the kernel reads only the common shape); I/O errors throw. */
export async function scriptRunTopics(path: string): Promise<RunFileTopics> {
  const lists = new TopicLists();
  const { rows, errors, tags } = await readRunLines(path, lists);
  return { rows, errors, tags, repeats: lists.repeats, ...lists.rankings() };
}

/** One topic's lines of one tag, in file order, and the documents already met. */
interface TopicList {
  readonly qid: string;
  readonly tag: number;
  readonly docnos: string[];
  readonly scores: number[];
  readonly seen: Set<string>;
}

/** The lines of a run file gathered by topic and tag, a repeated document set aside. */
class TopicLists implements RunLineSink {
  private readonly lists: TopicList[] = [];
  private readonly byKey = new Map<string, TopicList>();
  /** The list of the last line: a run file lists each topic's lines together. */
  private last: TopicList | undefined;
  readonly repeats: RepeatedDocument[] = [];

  readonly keepsScoreText = false;

  add(qid: string, tag: number, docno: string, score: number, line: number): void {
    let list = this.last;
    if (list === undefined || list.qid !== qid || list.tag !== tag) {
      // The separator cannot occur inside a whitespace-split field.
      const key = `${tag} ${qid}`;
      list = this.byKey.get(key);
      if (list === undefined) {
        list = { qid, tag, docnos: [], scores: [], seen: new Set() };
        this.byKey.set(key, list);
        this.lists.push(list);
      }
      this.last = list;
    }
    if (list.seen.has(docno)) {
      this.repeats.push({ line, qid, tag, docno });
      return;
    }
    list.seen.add(docno);
    list.docnos.push(docno);
    list.scores.push(score);
  }

  async flushIfFull(): Promise<void> {}

  /** Every list ranked, its JSON in one buffer of its own. */
  rankings(): { rankings: TopicRanking[]; json: Uint8Array } {
    const texts = this.lists.map(({ docnos, scores }) => {
      const ranked = inTrecOrder({ docnos, scores });
      return Buffer.from(`{"doc_uris":${JSON.stringify(ranked.docnos)},"scores":${JSON.stringify(ranked.scores)}}`);
    });
    // A buffer of its own (Buffer.concat may hand out a slice of the shared pool, which must never be transferred).
    const json = new Uint8Array(texts.reduce((sum, text) => sum + text.length, 0));
    let end = 0;
    const rankings = this.lists.map(({ qid, tag, docnos }, index) => {
      const text = texts[index] as Buffer;
      json.set(text, end);
      end += text.length;
      return { qid, tag, count: docnos.length, start: end - text.length, end };
    });
    return { rankings, json };
  }
}
