import { readTextChunks } from './text-chunks.js';

/** One line of a text file, without its line end. */
export interface TextLine {
  /** 1-based line number. */
  line: number;
  text: string;
}

/**
 * Streams the lines of a UTF-8 text file with their line numbers. Handles a byte
 * order mark, CRLF, a missing final newline and lines longer than any chunk
 * (a line is assembled from pieces only when it spans chunks).
 */
export async function* readLines(file: string): AsyncGenerator<TextLine> {
  let line = 1;
  let pieces: string[] = [];
  for await (const chunk of readTextChunks(file)) {
    let start = 0;
    let newline = chunk.indexOf('\n', start);
    while (newline !== -1) {
      const tail = chunk.slice(start, newline);
      const text = pieces.length === 0 ? tail : pieces.join('') + tail;
      pieces = [];
      yield { line, text };
      line += 1;
      start = newline + 1;
      newline = chunk.indexOf('\n', start);
    }
    if (start < chunk.length) pieces.push(chunk.slice(start));
  }
  if (pieces.length > 0) yield { line, text: pieces.join('') };
}
