import type { InputError } from '../schema/input-error.js';
import { readTextChunks } from '../readers/text-chunks.js';
import { scanTrecFields } from './trec-fields.js';
import { readOrReport } from './trec-inputs.js';
import { TrecRunSpill } from './trec-run-spill.js';

const RUN_LINE = 'write each result as: topic-id Q0 document-id rank score run-tag (e.g. "301 Q0 FBIS3-10082 1 12.5 bm25")';

/** What spilling one run file found: its lines, their errors, and its tags in the order it first uses them. */
export interface SpilledRunFile {
  readonly rows: number;
  readonly errors: InputError[];
  readonly tags: string[];
}

/** Spills a collection's run files (index = position) into `folder` in `partitions` partitions each: one after another, or several at once. */
export type RunSpiller = (runs: readonly string[], folder: string, partitions: number) => Promise<SpilledRunFile[]>;

/** The run files spilled one after another, in this thread. */
export const spillRunsInTurn: RunSpiller = async (runs, folder, partitions) => {
  const spilled: SpilledRunFile[] = [];
  for (const [index, file] of runs.entries()) spilled.push(await spillRunFile(file, index, folder, partitions));
  return spilled;
};

/** One run file spilled (TrecRunSpill); a file that cannot be read is one error. */
export async function spillRunFile(file: string, fileIndex: number, folder: string, partitions: number): Promise<SpilledRunFile> {
  return readOrReport(
    file,
    async (path) => {
      const spill = new TrecRunSpill(folder, partitions, fileIndex);
      const spilled = await spillRun(path, spill);
      await spill.flush();
      return spilled;
    },
    { rows: 0, errors: [], tags: [] },
  );
}

/**
 * Streams a TREC run file (`qid Q0 docno rank score tag`, extra fields ignored
 * as trec_eval does) into its spill, with the same line checks as readRun
 * (trec-run-reader.ts); repeated documents are found when the spills'
 * partitions are grouped. Lines are handled chunk by chunk rather than one
 * awaited line at a time: run files have millions of lines.
 */
async function spillRun(file: string, spill: TrecRunSpill): Promise<SpilledRunFile> {
  const errors: InputError[] = [];
  const tags: string[] = [];
  const tagNumbers = new Map<string, number>();
  let rows = 0;
  let lineNumber = 0;
  let rest = '';
  // The last tag and its number: a run file repeats one tag on every line.
  let lastTag: string | undefined;
  let lastNumber = 0;
  const bounds = new Int32Array(12);
  const field = (text: string, index: number): string => text.slice(bounds[2 * index], bounds[2 * index + 1]);
  const handle = (text: string): void => {
    lineNumber += 1;
    const count = scanTrecFields(text, bounds);
    if (count === 0) return;
    rows += 1;
    if (count < 6) {
      errors.push({ file, line: lineNumber, message: `expected 6 fields (qid Q0 docno rank score tag), got ${count}`, fix: RUN_LINE });
      return;
    }
    const qid = field(text, 0);
    const docno = field(text, 2);
    const scoreText = field(text, 4);
    const tag = field(text, 5);
    // The scanned field is never empty nor padded, so Number alone decides (parseTrecScore also trims).
    if (!Number.isFinite(Number(scoreText))) {
      errors.push({ file, line: lineNumber, field: 'score', message: `expected a finite number, got "${scoreText}"`, fix: 'give the score as a decimal number' });
      return;
    }
    if (tag !== lastTag) {
      lastTag = tag;
      let number = tagNumbers.get(tag);
      if (number === undefined) {
        number = tags.push(tag) - 1;
        tagNumbers.set(tag, number);
      }
      lastNumber = number;
    }
    spill.add(qid, lastNumber, docno, scoreText, lineNumber);
  };
  for await (const chunk of readTextChunks(file)) {
    let start = 0;
    let newline = chunk.indexOf('\n');
    if (newline !== -1 && rest !== '') {
      handle(rest + chunk.slice(0, newline));
      rest = '';
      start = newline + 1;
      newline = chunk.indexOf('\n', start);
    }
    while (newline !== -1) {
      handle(chunk.slice(start, newline));
      start = newline + 1;
      newline = chunk.indexOf('\n', start);
    }
    rest += chunk.slice(start);
    await spill.flushIfFull();
  }
  if (rest !== '') handle(rest);
  return { rows, errors, tags };
}
