import { createReadStream } from 'node:fs';

/**
 * Calls `onLine` for every line of a text file, streaming: the file is read in
 * 1 MiB chunks and never held whole in memory. Line numbers are 1-based. A
 * UTF-8 byte-order mark, CRLF line ends and a missing final newline are
 * accepted. The callback is synchronous on purpose: the per-line cost of an
 * async iterator dominates when a run file has millions of lines.
 */
export async function forEachLine(
  path: string,
  onLine: (line: string, lineNumber: number) => void,
): Promise<void> {
  const decoder = new TextDecoder('utf-8');
  let pending = '';
  let lineNumber = 0;
  let first = true;
  for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 })) {
    let text = pending + decoder.decode(chunk as Buffer, { stream: true });
    if (first) {
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      first = false;
    }
    let start = 0;
    let end = text.indexOf('\n', start);
    while (end !== -1) {
      lineNumber++;
      onLine(stripCarriageReturn(text, start, end), lineNumber);
      start = end + 1;
      end = text.indexOf('\n', start);
    }
    pending = text.slice(start);
  }
  pending += decoder.decode();
  if (first && pending.charCodeAt(0) === 0xfeff) pending = pending.slice(1);
  if (pending.length > 0) onLine(stripCarriageReturn(pending, 0, pending.length), lineNumber + 1);
}

function stripCarriageReturn(text: string, start: number, end: number): string {
  return text.charCodeAt(end - 1) === 13 ? text.slice(start, end - 1) : text.slice(start, end);
}

/**
 * Splits a line into whitespace-separated fields, as trec_eval's readers do
 * (C isspace: space, tab, vertical tab, form feed, carriage return).
 */
export function splitFields(line: string): string[] {
  const fields: string[] = [];
  let index = 0;
  const length = line.length;
  while (index < length) {
    while (index < length && isSpace(line.charCodeAt(index))) index++;
    if (index >= length) break;
    const start = index;
    while (index < length && !isSpace(line.charCodeAt(index))) index++;
    fields.push(line.slice(start, index));
  }
  return fields;
}

function isSpace(code: number): boolean {
  return code === 32 || (code >= 9 && code <= 13);
}
