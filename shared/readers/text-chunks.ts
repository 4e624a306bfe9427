import { createReadStream } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import { refuseForeignEncoding } from './file-encoding.js';

const BYTE_ORDER_MARK = '\uFEFF';

/**
 * Reads a UTF-8 text file as a stream of string chunks, never the whole file at
 * once. The byte order mark some Windows tools write is dropped and CRLF line
 * ends become LF, so every reader downstream sees one line-end convention and
 * counts lines the same way. A lone CR is left alone: it is not a line end in
 * any of the formats assay reads. A file that starts as UTF-16, UTF-32 or
 * compressed data does throws FileEncodingError (file-encoding.ts).
 */
export async function* readTextChunks(file: string): AsyncGenerator<string> {
  const stream = createReadStream(file, { highWaterMark: 1 << 16 });
  const decoder = new StringDecoder('utf8');
  let first = true;
  // A CR at the end of a chunk may be the first half of a CRLF split across chunks.
  let heldCarriageReturn = false;
  for await (const bytes of stream as AsyncIterable<Buffer>) {
    if (first) refuseForeignEncoding(bytes);
    const piece = decoder.write(bytes);
    let chunk: string = heldCarriageReturn ? `\r${piece}` : piece;
    if (first) {
      first = false;
      if (chunk.startsWith(BYTE_ORDER_MARK)) chunk = chunk.slice(1);
    }
    heldCarriageReturn = chunk.endsWith('\r');
    if (heldCarriageReturn) chunk = chunk.slice(0, -1);
    chunk = chunk.replaceAll('\r\n', '\n');
    if (chunk.length > 0) yield chunk;
  }
  // An incomplete character at the very end: the decoder's replacement character, as a UTF-8 stream gives it.
  const rest = `${heldCarriageReturn ? '\r' : ''}${decoder.end()}`;
  if (rest.length > 0) yield rest;
}
