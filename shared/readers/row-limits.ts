import type { InputError } from '../schema/input-error.js';

/**
 * What a single row may hold. Past these a row is rejected as an input error
 * and reading goes on with the next row: a deeper row would overflow the
 * stack of every recursive step after parsing (schema checks, deep equality,
 * JSON.stringify of the case message), and a longer one is skipped as it
 * streams instead of being assembled in memory.
 */
export interface RowLimits {
  /** Characters of one row's text (a JSONL line, a JSON array element, a CSV record). */
  readonly maxRowCharacters: number;
  /** Arrays and objects open at once inside one row, the row itself counted. */
  readonly maxDepth: number;
}

export const DEFAULT_ROW_LIMITS: RowLimits = {
  // 64 MiB of ASCII; text that is not ASCII takes more bytes per character, so never fewer bytes.
  maxRowCharacters: 64 * 1024 * 1024,
  maxDepth: 64,
};

const STRUCTURAL = /["[\]{}]/g;

/**
 * Whether JSON text nests arrays and objects deeper than `maxDepth`, found by
 * counting brackets outside strings: one pass, no recursion, so it is safe to
 * run before JSON.parse on any input. The regular expression and indexOf
 * jump over plain text and string contents natively. Malformed text gets an
 * answer too; the parser then reports what is wrong with it.
 */
export function nestsDeeperThan(text: string, maxDepth: number): boolean {
  const structural = new RegExp(STRUCTURAL);
  let depth = 0;
  for (let match = structural.exec(text); match !== null; match = structural.exec(text)) {
    const character = match[0];
    if (character === '"') {
      const end = closingQuote(text, match.index);
      if (end === -1) return false;
      structural.lastIndex = end + 1;
    } else if (character === '[' || character === '{') {
      depth += 1;
      if (depth > maxDepth) return true;
    } else {
      depth -= 1;
    }
  }
  return false;
}

/** The index of the quote that closes the string opened at `opening`, or -1. */
function closingQuote(text: string, opening: number): number {
  let end = text.indexOf('"', opening + 1);
  while (end !== -1 && isEscaped(text, end)) end = text.indexOf('"', end + 1);
  return end;
}

/** A quote is escaped when an odd number of backslashes stands right before it. */
function isEscaped(text: string, index: number): boolean {
  let backslashes = 0;
  for (let position = index - 1; position >= 0 && text.charCodeAt(position) === 0x5c; position -= 1) backslashes += 1;
  return backslashes % 2 === 1;
}

export function tooDeepError(file: string, line: number, limits: RowLimits, field?: string): InputError {
  return {
    file,
    line,
    ...(field === undefined ? {} : { field }),
    message: `the row nests arrays and objects more than ${limits.maxDepth} levels deep`,
    fix: `flatten the row to at most ${limits.maxDepth} levels of nesting (a deeper structure can go into a field as a JSON string)`,
  };
}

export function tooLargeError(file: string, line: number, characters: number, limits: RowLimits): InputError {
  return {
    file,
    line,
    message: `the row is ${describeSize(characters)} long, more than the limit of ${describeSize(limits.maxRowCharacters)}`,
    fix: 'shorten the row: keep retrieved chunks to the text that was shown, and store large documents elsewhere under a doc_uri',
  };
}

function describeSize(characters: number): string {
  if (characters >= 1024 * 1024) return `${(characters / (1024 * 1024)).toFixed(1)} Mi characters`;
  return `${characters.toLocaleString('en-US')} characters`;
}
