import { readTextChunks } from './text-chunks.js';

/** One line of a text file, without its line end. */
export interface TextLine {
  /** 1-based line number. */
  line: number;
  text: string;
}

/** A line longer than the reader's limit: its text was skipped, only its length is known. */
export interface SkippedLine {
  line: number;
  /** The line's length in characters. */
  skippedCharacters: number;
}

/**
 * Streams the lines of a UTF-8 text file with their line numbers. Handles a byte
 * order mark, CRLF, a missing final newline and lines longer than any chunk
 * (a line is assembled from pieces only when it spans chunks).
 */
export async function* readLines(file: string): AsyncGenerator<TextLine> {
  for await (const read of readBoundedLines(file, Number.POSITIVE_INFINITY)) {
    if ('text' in read) yield read;
  }
}

/**
 * readLines with a bound on memory: a line longer than `maxCharacters` is not
 * assembled; the rest of it is skipped as it streams by, and it comes out as
 * a SkippedLine with its length, so the caller can report it and go on.
 */
export async function* readBoundedLines(file: string, maxCharacters: number): AsyncGenerator<TextLine | SkippedLine> {
  let line = 1;
  let pieces: string[] = [];
  let length = 0;
  const finishLine = (tail: string): TextLine | SkippedLine => {
    const total = length + tail.length;
    const text = total > maxCharacters ? undefined : pieces.length === 0 ? tail : pieces.join('') + tail;
    pieces = [];
    length = 0;
    return text === undefined ? { line, skippedCharacters: total } : { line, text };
  };
  for await (const chunk of readTextChunks(file)) {
    let start = 0;
    let newline = chunk.indexOf('\n', start);
    while (newline !== -1) {
      yield finishLine(chunk.slice(start, newline));
      line += 1;
      start = newline + 1;
      newline = chunk.indexOf('\n', start);
    }
    if (start < chunk.length) {
      length += chunk.length - start;
      // Past the limit the pieces are dropped and only counted: the line is lost either way.
      if (length > maxCharacters) pieces = [];
      else pieces.push(chunk.slice(start));
    }
  }
  if (length > 0) yield finishLine('');
}
