import type { InputError } from '../schema/input-error.js';
import { readTextChunks } from './text-chunks.js';
import { scanTrecFields } from './trec-fields.js';
import type { TrecRunSpill } from './trec-run-spill.js';

const RUN_LINE = 'write each result as: topic-id Q0 document-id rank score run-tag (e.g. "301 Q0 FBIS3-10082 1 12.5 bm25")';

/**
 * Streams a TREC run file (`qid Q0 docno rank score tag`, extra fields ignored
 * as trec_eval does) into a spill, with the same line checks as readRun
 * (trec-run-reader.ts); repeated documents are found when the spill's
 * partitions are grouped. Lines are handled chunk by chunk rather than one
 * awaited line at a time: run files have millions of lines.
 */
export async function spillRun(file: string, fileIndex: number, spill: TrecRunSpill, engineFor: (tag: string) => number): Promise<{ rows: number; errors: InputError[] }> {
  const errors: InputError[] = [];
  let rows = 0;
  let lineNumber = 0;
  let rest = '';
  // The last tag and its engine: a run file repeats one tag on every line.
  let lastTag: string | undefined;
  let lastEngine = 0;
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
      lastEngine = engineFor(tag);
    }
    spill.add(qid, lastEngine, docno, scoreText, fileIndex, lineNumber);
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
  return { rows, errors };
}
