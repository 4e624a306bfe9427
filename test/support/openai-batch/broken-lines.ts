/**
 * A batch's result file (JSONL) written the way providers sometimes write
 * them: a line that is not JSON, a last line cut short, a line naming no
 * request of the job, a request answered twice with two different answers,
 * an error body under status 200. Both batch test servers (OpenAI's and
 * Bedrock's) write their result files through this, so a fault means the
 * same thing in both. Every fault is deterministic: which lines it takes
 * follows from the file's written order alone.
 */
export interface BrokenLineFaults {
  /** The first n lines of the file (in written order) become the text `this is not json`: unanswered for a client, yet judged and billed by the server. */
  readonly notJsonLines?: number;
  /** The file's last line cut in the middle, with no final newline, as a truncated write or download leaves it. */
  readonly cutLastLine?: boolean;
  /** n extra lines after all the others, each with a valid answer, whose id names no request of the job. */
  readonly unknownIdLines?: number;
  /**
   * The first n lines not already taken by notJsonLines (or errorBodyUnder200) are written a second
   * time after the others, under the same id, with the answer of the next line in written order
   * (their own when the file has one line).
   */
  readonly duplicateLines?: number;
}

export type BrokenLineKind = 'notJsonLines' | 'cutLastLine' | 'unknownIdLines' | 'duplicateLines' | 'errorBodyUnder200';

/** Tokens one answer counts. */
export interface Usage {
  readonly input: number;
  readonly output: number;
}

/** How one provider's result lines are read and remade. */
export interface ResultLineShape<Line> {
  /** The request id the line names (custom_id, recordId). */
  idOf(line: Line): string;
  /** The tokens of the line's answer, when it is an answer that counts them. */
  usageOf(line: Line): Usage | undefined;
  /** The line under its own id with the answer of `other`. */
  withAnswerOf(line: Line, other: Line): Line;
  /** The line numbered `index` (from 0) that names no request of the job; `like` is an answered line to borrow an answer from, when there is one. */
  unknownLine(index: number, like: Line | undefined): Line;
  /** The line, its status unchanged, with an error in place of its answer: OpenAI's error body under 200. */
  withErrorBody?(line: Line): Line;
}

export interface WrittenResult {
  readonly text: string;
  /** Which request each fault hit, in written order (the cut line last). */
  readonly broken: readonly { readonly id: string; readonly kind: BrokenLineKind }[];
  /** The usage of every line the file holds with an answer, broken or not: what the provider bills. */
  readonly billed: readonly Usage[];
}

const NOT_JSON = 'this is not json';

/** The text of the file holding these lines (in the order given), with the faults applied. */
export function writeResultLines<Line>(
  lines: readonly Line[],
  faults: BrokenLineFaults & { readonly errorBodyUnder200?: number },
  shape: ResultLineShape<Line>,
): WrittenResult {
  const notJsonEnd = faults.notJsonLines ?? 0;
  const errorBodyEnd = notJsonEnd + (shape.withErrorBody === undefined ? 0 : (faults.errorBodyUnder200 ?? 0));
  const duplicateEnd = errorBodyEnd + (faults.duplicateLines ?? 0);
  type Entry = { readonly line: Line; readonly text?: string; readonly kind?: BrokenLineKind };
  const entries: Entry[] = lines.map((line, index) => {
    if (index < notJsonEnd) return { line, text: NOT_JSON, kind: 'notJsonLines' };
    if (index < errorBodyEnd && shape.withErrorBody !== undefined) return { line: shape.withErrorBody(line), kind: 'errorBodyUnder200' };
    return { line };
  });
  const copies = lines.slice(errorBodyEnd, duplicateEnd).map((line, offset) => {
    const other = lines[(errorBodyEnd + offset + 1) % lines.length] ?? line;
    return { line: shape.withAnswerOf(line, other), kind: 'duplicateLines' as const };
  });
  const unknown = Array.from({ length: faults.unknownIdLines ?? 0 }, (_, index) => ({
    line: shape.unknownLine(index, lines.length === 0 ? undefined : lines[index % lines.length]),
    kind: 'unknownIdLines' as const,
  }));
  const all: Entry[] = [...entries, ...copies, ...unknown];
  const broken = all.flatMap(({ line, kind }) => (kind === undefined ? [] : [{ id: shape.idOf(line), kind }]));
  const billed = all.flatMap(({ line }) => shape.usageOf(line) ?? []);
  const texts = all.map(({ line, text }) => text ?? JSON.stringify(line));
  const last = all.at(-1);
  if (faults.cutLastLine !== true || last === undefined) return { text: texts.map((text) => `${text}\n`).join(''), broken, billed };
  const whole = texts.pop() ?? '';
  texts.push(whole.slice(0, Math.floor(whole.length / 2)));
  return { text: texts.join('\n'), broken: [...broken, { id: shape.idOf(last.line), kind: 'cutLastLine' }], billed };
}
