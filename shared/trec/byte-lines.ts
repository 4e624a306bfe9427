import { open } from 'node:fs/promises';
import { FOREIGN_START_BYTES, refuseForeignEncoding } from '../readers/file-encoding.js';

/**
 * Reading TREC text files (qrels, runs) line by line: the file is read in
 * 1 MiB chunks and never held whole in memory, a UTF-8 byte-order mark is
 * skipped and a missing final newline supplied; a file that starts as
 * UTF-16, UTF-32 or compressed data does throws FileEncodingError
 * (file-encoding.ts). The scanners below split
 * fields as trec_eval does (C isspace); a carriage return before a newline
 * is whitespace to them, so CRLF files read as LF ones. Callbacks are
 * synchronous on purpose: with millions of lines, an await per line would
 * dominate.
 */

/**
 * Calls `onLines` with runs of whole lines: `buffer[start, end)` always ends
 * just after a newline (one is added after a last line without one), so a
 * scanner can stop at the newline without checking `end` at every byte.
 * For readers that scan lines themselves in one pass, without a call or a
 * newline search per line. The file is read into one buffer, reused from
 * chunk to chunk (and grown only for a line longer than it); the buffer is
 * only valid during the call. `afterChunk`, when given, is awaited after
 * each call (a reader that writes what it read, between chunks).
 */
export async function forEachLineRun(
  path: string,
  onLines: (buffer: Buffer, start: number, end: number) => void,
  afterChunk?: () => Promise<void>,
): Promise<void> {
  const handle = await open(path, 'r');
  try {
    let buffer: Buffer = Buffer.allocUnsafe(1 << 20);
    let filled = 0;
    let start = -1;
    for (;;) {
      if (filled === buffer.length) buffer = grown(buffer, filled);
      const { bytesRead } = await handle.read(buffer, filled, buffer.length - filled, null);
      if (bytesRead === 0) break;
      filled += bytesRead;
      if (start === -1) {
        if (filled < FOREIGN_START_BYTES) continue;
        refuseForeignEncoding(buffer.subarray(0, FOREIGN_START_BYTES));
        start = buffer[0] === 0xef && buffer[1] === 0xbb && buffer[2] === 0xbf ? 3 : 0;
      }
      const end = buffer.lastIndexOf(10, filled - 1) + 1;
      if (end <= start) continue;
      onLines(buffer, start, end);
      if (afterChunk !== undefined) await afterChunk();
      buffer.copyWithin(0, end, filled);
      filled -= end;
      start = 0;
    }
    if (start === -1) {
      // A file shorter than the starts refuseForeignEncoding looks for.
      refuseForeignEncoding(buffer.subarray(0, filled));
      start = filled >= 3 && buffer[0] === 0xef && buffer[1] === 0xbb && buffer[2] === 0xbf ? 3 : 0;
    }
    if (filled > start) {
      // What is left after the last newline, or the whole of a very short file, which may end in one.
      if (buffer[filled - 1] !== 10) {
        if (filled === buffer.length) buffer = grown(buffer, filled);
        buffer[filled++] = 10;
      }
      onLines(buffer, start, filled);
      if (afterChunk !== undefined) await afterChunk();
    }
  } finally {
    await handle.close();
  }
}

function grown(buffer: Buffer, filled: number): Buffer {
  const larger = Buffer.allocUnsafe(buffer.length * 2);
  buffer.copy(larger, 0, 0, filled);
  return larger;
}

/* Byte scanners for lines handed over by forEachLineRun, which end in a newline that stops them. */

/** The position of the newline that ends the line holding `index`. */
export function endOfLine(buffer: Buffer, index: number): number {
  let position = index;
  while (buffer[position] !== 10) position++;
  return position;
}

/** The first position from `index` that is not a space within the line (the newline stops it). */
export function skipSpaces(buffer: Buffer, index: number): number {
  let position = index;
  while (isSpaceByte(buffer[position] as number)) position++;
  return position;
}

/** The end of the field that starts at `index`. */
export function skipField(buffer: Buffer, index: number): number {
  let position = index;
  while (isFieldByte(buffer[position] as number)) position++;
  return position;
}

/** Whether a byte separates fields within a line: C isspace but the newline (space, \t, \v, \f, \r). */
export function isSpaceByte(byte: number): boolean {
  return byte === 32 || byte === 9 || (byte >= 11 && byte <= 13);
}

/** Whether a byte belongs to a field: anything but C isspace (space, \t, \n, \v, \f, \r), as trec_eval splits. */
export function isFieldByte(byte: number): boolean {
  return byte > 32 || byte < 9 || (byte > 13 && byte < 32);
}

/**
 * Decodes a field: latin1 is a plain byte copy, right for ASCII and much
 * faster than UTF-8. Calls Buffer's own slice methods: toString's argument
 * handling costs as much as the copy for short fields.
 */
export function decodeField(buffer: Buffer, start: number, end: number): string {
  const slicer = buffer as unknown as BufferSlicers;
  for (let index = start; index < end; index++) {
    if ((buffer[index] as number) >= 0x80) return slicer.utf8Slice(start, end);
  }
  return slicer.latin1Slice(start, end);
}

/** Methods every Node.js Buffer has, missing from its type declarations. */
interface BufferSlicers {
  latin1Slice(start: number, end: number): string;
  utf8Slice(start: number, end: number): string;
}
