import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';

/**
 * Streaming line readers for TREC text files. The file is read in 1 MiB
 * chunks and never held whole in memory. Line numbers are 1-based; a UTF-8
 * byte-order mark, CRLF line ends and a missing final newline are accepted.
 * Callbacks are synchronous on purpose: with millions of lines, the cost of an
 * async iterator per line would dominate.
 */

/**
 * Calls `onLine` with the bytes of each line: `buffer[start, end)`, without the
 * line end. The buffer is only valid during the call. Working on bytes lets a
 * reader decode just the fields it keeps, which matters for run files of
 * hundreds of megabytes.
 */
export async function forEachLineBytes(
  path: string,
  onLine: (buffer: Buffer, start: number, end: number, lineNumber: number) => void,
): Promise<void> {
  let leftover: Buffer | undefined;
  let lineNumber = 0;
  let first = true;
  for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 })) {
    const buffer: Buffer = leftover === undefined ? (chunk as Buffer) : Buffer.concat([leftover, chunk as Buffer]);
    let start = 0;
    if (first) {
      if (buffer[0] === 0xef && buffer[1] === 0xbb && buffer[2] === 0xbf) start = 3;
      first = false;
    }
    let newline = buffer.indexOf(10, start);
    while (newline !== -1) {
      lineNumber++;
      onLine(buffer, start, buffer[newline - 1] === 13 && newline > start ? newline - 1 : newline, lineNumber);
      start = newline + 1;
      newline = buffer.indexOf(10, start);
    }
    leftover = start < buffer.length ? buffer.subarray(start) : undefined;
  }
  if (leftover !== undefined) {
    const end = leftover[leftover.length - 1] === 13 ? leftover.length - 1 : leftover.length;
    onLine(leftover, 0, end, lineNumber + 1);
  }
}

/**
 * Calls `onLines` with runs of whole lines: `buffer[start, end)` always ends
 * just after a newline (one is added after a last line without one), so a
 * scanner can stop at the newline without checking `end` at every byte.
 * For readers that scan lines themselves in one pass, without a call or a
 * newline search per line. The file is read into one buffer, reused from
 * chunk to chunk (and grown only for a line longer than it); the buffer is
 * only valid during the call.
 */
export async function forEachLineRun(path: string, onLines: (buffer: Buffer, start: number, end: number) => void): Promise<void> {
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
        if (filled < 3) continue;
        start = buffer[0] === 0xef && buffer[1] === 0xbb && buffer[2] === 0xbf ? 3 : 0;
      }
      const end = buffer.lastIndexOf(10, filled - 1) + 1;
      if (end <= start) continue;
      onLines(buffer, start, end);
      buffer.copyWithin(0, end, filled);
      filled -= end;
      start = 0;
    }
    if (start === -1) start = 0;
    if (filled > start) {
      if (filled === buffer.length) buffer = grown(buffer, filled);
      buffer[filled++] = 10;
      onLines(buffer, start, filled);
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

/**
 * Finds the whitespace-separated fields of `buffer[start, end)`, as trec_eval's
 * readers split them (C isspace: space, tab, newline, vertical tab, form
 * feed, carriage return). Writes field i's bounds to bounds[2i], bounds[2i+1]
 * and returns how many fields were found, stopping after `maxFields`.
 */
export function scanFields(buffer: Buffer, start: number, end: number, maxFields: number, bounds: Int32Array): number {
  let index = start;
  let count = 0;
  while (count < maxFields) {
    while (index < end && isSpaceByte(buffer[index] as number)) index++;
    if (index >= end) break;
    bounds[2 * count] = index;
    while (index < end && !isSpaceByte(buffer[index] as number)) index++;
    bounds[2 * count + 1] = index;
    count++;
  }
  return count;
}

/** Whether the line is empty, all whitespace, or a `#` comment (first column, as trec_eval). */
export function isBlankOrCommentBytes(buffer: Buffer, start: number, end: number): boolean {
  if (buffer[start] === 35) return true;
  for (let index = start; index < end; index++) if (!isSpaceByte(buffer[index] as number)) return false;
  return true;
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

function isSpaceByte(byte: number): boolean {
  return byte === 32 || (byte >= 9 && byte <= 13);
}
