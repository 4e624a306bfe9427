const [QUOTE, NEWLINE] = [0x22, 0x0a];

/** The header record is longer than the row limit: nothing after it can be read as rows. */
export class OversizedHeaderError extends Error {
  constructor(readonly characters: number) {
    super(`the header line is ${characters.toLocaleString('en-US')} characters long`);
  }
}

/**
 * Passes CSV text through record by record, holding at most `maxCharacters`
 * of one record: a longer record is dropped as it streams by and replaced by
 * as many empty lines as it spanned, so the parser skips it and every later
 * line keeps its number; `onOversized` is told its first line and length.
 *
 * Records end at a line break outside double quotes. A quote toggles the
 * quoting, which follows RFC 4180 (a doubled quote inside a quoted field
 * toggles twice); in a file with stray quotes the parser reports those rows
 * anyway.
 */
export async function* boundCsvRecords(
  chunks: AsyncIterable<string>,
  maxCharacters: number,
  onOversized: (line: number, characters: number) => void,
): AsyncGenerator<string> {
  let inQuotes = false;
  let line = 1;
  let recordLine = 1;
  let held: string[] = [];
  let heldCharacters = 0;
  let firstRecord = true;

  const hold = (piece: string): void => {
    heldCharacters += piece.length;
    // Past the limit the pieces are dropped and only counted: the record is lost either way.
    if (heldCharacters > maxCharacters) held = [];
    else held.push(piece);
  };
  const endRecord = (tail: string): string => {
    // Counted without the line break that ends the record, as a JSONL line is.
    const characters = heldCharacters + tail.length - (tail.endsWith('\n') ? 1 : 0);
    let text: string;
    if (characters > maxCharacters) {
      if (firstRecord) throw new OversizedHeaderError(characters);
      onOversized(recordLine, characters);
      text = '\n'.repeat(line - recordLine);
    } else {
      text = held.join('') + tail;
    }
    [held, heldCharacters, recordLine, firstRecord] = [[], 0, line, false];
    return text;
  };

  for await (const chunk of chunks) {
    const output: string[] = [];
    let start = 0;
    for (let index = 0; index < chunk.length; index += 1) {
      const code = chunk.charCodeAt(index);
      if (code === QUOTE) {
        inQuotes = !inQuotes;
      } else if (code === NEWLINE) {
        line += 1;
        if (inQuotes) continue;
        output.push(endRecord(chunk.slice(start, index + 1)));
        start = index + 1;
      }
    }
    hold(chunk.slice(start));
    const text = output.join('');
    if (text.length > 0) yield text;
  }
  if (heldCharacters > 0) {
    const text = endRecord('');
    if (text.length > 0) yield text;
  }
}
