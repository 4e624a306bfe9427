import {
  arrayNotClosed,
  EMPTY_FILE,
  MISSING_COMMA,
  NO_ROWS_IN_OBJECT,
  notAnArray,
  OBJECT_NOT_CLOSED,
  ROW_ARRAY_KEYS,
  textAfterDocument,
  type DocumentError,
} from './json-document-errors.js';

/**
 * Cuts a JSON document of the form `[ {...}, {...} ]` into its elements as the
 * text arrives, so a file of any size is read one element at a time. It tracks
 * only what finds element boundaries: string and escape state and the stack of
 * open brackets. Each element's text is then parsed on its own, so a malformed
 * element costs one row, not the file. A top-level object is read when it holds
 * the rows under one of ROW_ARRAY_KEYS (`{"data": [...]}`).
 *
 * Recovery: a bracket that closes the wrong opener closes back to its match. A
 * raw line break inside a string (never valid JSON) means the element is lost:
 * scanning skips to the next line that starts with `{`, follows a line ending
 * in a comma and is indented no deeper than the broken element, which is where
 * the next element of a one-per-line or pretty-printed array starts. A `{` or
 * `[` right after a whole object or array element (`{...}\n{...}`: the comma
 * between them is missing) starts the next element, with a document error
 * that says so, so both rows are read. A trailing comma before `]` is
 * tolerated.
 */

export type SplitterOutput =
  | { kind: 'element'; line: number; text: string }
  /** An element longer than the splitter's limit: its text was dropped as it streamed by. */
  | { kind: 'oversized-element'; line: number; characters: number }
  | { kind: 'bad-element'; line: number; message: string }
  | ({ kind: 'document-error'; line: number } & DocumentError);

type Phase = 'document-start' | 'rows' | 'wrapper' | 'after-document' | 'stopped';

interface OpenElement {
  line: number;
  column: number;
  pieces: string[];
  /** Where the element's text starts in the current chunk (0 once it spans chunks). */
  start: number;
  /** Characters in the pieces so far, counted on even once they are dropped for being too many. */
  characters: number;
  /** Whether it starts with { or [: back at the rows level, such an element is whole. */
  bracketed: boolean;
  problem?: string;
}

const [QUOTE, BACKSLASH, NEWLINE, COMMA] = [0x22, 0x5c, 0x0a, 0x2c];
const [OPEN_BRACE, CLOSE_BRACE, OPEN_BRACKET, CLOSE_BRACKET] = [0x7b, 0x7d, 0x5b, 0x5d];

/** The last visible character before `index` on its line, as far as this chunk shows it. */
function lastNonSpaceBefore(chunk: string, index: number): number {
  let position = index - 1;
  while (position >= 0 && isSpace(chunk.charCodeAt(position))) position -= 1;
  return position >= 0 ? chunk.charCodeAt(position) : QUOTE;
}

function isSpace(code: number): boolean {
  return code === 0x20 || code === 0x09 || code === 0x0d || code === NEWLINE;
}

/** Where the run of string content from `index` ends: at the next quote, backslash or line break, or the chunk's end. */
function endOfStringRun(chunk: string, index: number): number {
  let position = index;
  for (let code = chunk.charCodeAt(position); position < chunk.length; code = chunk.charCodeAt(++position)) {
    if (code === QUOTE || code === BACKSLASH || code === NEWLINE) break;
  }
  return position;
}

/** A character outside strings that neither opens, closes nor separates anything, nor ends a line. */
function isPlainOutsideString(code: number): boolean {
  return (
    code !== QUOTE &&
    code !== COMMA &&
    code !== NEWLINE &&
    code !== OPEN_BRACE &&
    code !== CLOSE_BRACE &&
    code !== OPEN_BRACKET &&
    code !== CLOSE_BRACKET
  );
}

export class JsonArraySplitter {
  private line = 1;
  private offset = 0;
  private lineStart = 0;
  private phase: Phase = 'document-start';
  private readonly openers: number[] = [];
  private inString = false;
  private escaped = false;
  /** Open brackets, the rows array included, when directly inside the rows array. */
  private rowsDepth = 0;
  private awaitingElement = true;
  private element: OpenElement | undefined;
  /** Set after a broken element: the deepest column where the next element may start. */
  private resyncColumn: number | undefined;
  private lastNonSpace = 0;
  private previousLineEnd = 0;
  private wrapperLine = 0;
  private foundRowsArray = false;
  private keyPieces: string[] | undefined;
  private keyStart = 0;
  private lastKey = '';

  /** @param maxElementCharacters elements longer than this are not assembled (see SplitterOutput). */
  constructor(private readonly maxElementCharacters = Number.POSITIVE_INFINITY) {}

  *push(chunk: string): Generator<SplitterOutput> {
    for (let index = 0; index < chunk.length && this.phase !== 'stopped'; index += 1) {
      const code = chunk.charCodeAt(index);
      if (this.inString) {
        // Most of a row is string content, and only a quote, a backslash or a line break there changes anything.
        if (!this.escaped && code !== QUOTE && code !== BACKSLASH && code !== NEWLINE) {
          index = endOfStringRun(chunk, index) - 1;
          continue;
        }
        yield* this.scanString(code, index, chunk);
      } else if (this.element !== undefined && this.phase === 'rows' && this.resyncColumn === undefined && isPlainOutsideString(code)) {
        // Numbers, literals, colons and spaces inside an element only move the last visible character.
        index = this.skipPlainOutsideString(chunk, index) - 1;
      } else if (this.resyncColumn !== undefined) {
        this.scanForNextElement(code, index);
      } else if (code === NEWLINE) {
        this.startLine(index);
      } else if (!isSpace(code)) {
        yield* this.scanToken(code, index, chunk);
      }
    }
    this.offset += chunk.length;
    if (this.element !== undefined) {
      const element = this.element;
      element.characters += chunk.length - element.start;
      if (element.characters > this.maxElementCharacters) element.pieces = [];
      else element.pieces.push(chunk.slice(element.start));
      element.start = 0;
    }
    if (this.keyPieces !== undefined) {
      this.keyPieces.push(chunk.slice(this.keyStart));
      this.keyStart = 0;
    }
  }

  *end(): Generator<SplitterOutput> {
    if (this.phase === 'document-start') yield { kind: 'document-error', line: 0, ...EMPTY_FILE };
    if (this.phase === 'wrapper') yield { kind: 'document-error', line: this.wrapperLine, ...OBJECT_NOT_CLOSED };
    // After a broken element the rest of the file was skipped; that element's error already says so.
    if (this.phase === 'rows' && this.resyncColumn === undefined) {
      yield { kind: 'document-error', line: this.element?.line ?? this.line, ...arrayNotClosed(this.element !== undefined) };
    }
  }

  /** Skips the characters from `index` that isPlainOutsideString accepts, as scanRows would read them; returns where the run ends. */
  private skipPlainOutsideString(chunk: string, index: number): number {
    let position = index;
    let lastNonSpace = this.lastNonSpace;
    for (
      let code = chunk.charCodeAt(position);
      position < chunk.length && isPlainOutsideString(code);
      code = chunk.charCodeAt(++position)
    ) {
      if (!isSpace(code)) lastNonSpace = code;
    }
    this.lastNonSpace = lastNonSpace;
    return position;
  }

  private startLine(index: number): void {
    this.line += 1;
    this.lineStart = this.offset + index + 1;
    this.previousLineEnd = this.lastNonSpace;
    this.lastNonSpace = NEWLINE;
  }

  private *scanString(code: number, index: number, chunk: string): Generator<SplitterOutput> {
    if (this.escaped) {
      this.escaped = false;
    } else if (code === BACKSLASH) {
      this.escaped = true;
    } else if (code === QUOTE) {
      this.inString = false;
      if (this.keyPieces !== undefined) this.finishKey(chunk.slice(this.keyStart, index));
    } else if (code === NEWLINE) {
      // JSON strings cannot hold a raw line break: this one was never closed.
      this.inString = false;
      this.keyPieces = undefined;
      this.lastNonSpace = lastNonSpaceBefore(chunk, index);
      this.startLine(index);
      if (this.element !== undefined) {
        this.resyncColumn = this.element.column;
        this.element.problem ??= 'a string is not closed before the end of its line';
        this.openers.length = this.rowsDepth;
        yield this.finishElement('');
      }
    }
  }

  private scanForNextElement(code: number, index: number): void {
    if (code === NEWLINE) {
      this.startLine(index);
      return;
    }
    const column = this.offset + index - this.lineStart;
    const startsLine = this.lastNonSpace === NEWLINE;
    if (!isSpace(code)) this.lastNonSpace = code;
    const resyncColumn = this.resyncColumn ?? 0;
    if (code === OPEN_BRACE && startsLine && this.previousLineEnd === COMMA && column <= resyncColumn) {
      this.resyncColumn = undefined;
      this.openElement(index, code);
      this.openers.push(code);
    }
  }

  private *scanToken(code: number, index: number, chunk: string): Generator<SplitterOutput> {
    this.lastNonSpace = code;
    if (this.phase === 'document-start') {
      if (!this.startDocument(code)) yield { kind: 'document-error', line: this.line, ...notAnArray(chunk[index] ?? '') };
    } else if (this.phase === 'rows') {
      yield* this.scanRows(code, index, chunk);
    } else if (this.phase === 'wrapper') {
      yield* this.scanWrapper(code, index);
    } else if (this.phase === 'after-document') {
      this.phase = 'stopped';
      yield { kind: 'document-error', line: this.line, ...textAfterDocument(chunk[index] ?? '') };
    }
  }

  /** False when the document is neither an array nor an object: nothing more can be read. */
  private startDocument(code: number): boolean {
    if (code === OPEN_BRACKET) {
      this.openers.push(code);
      this.enterRows();
    } else if (code === OPEN_BRACE) {
      this.openers.push(code);
      this.phase = 'wrapper';
      this.wrapperLine = this.line;
    } else {
      this.phase = 'stopped';
    }
    return this.phase !== 'stopped';
  }

  private enterRows(): void {
    this.phase = 'rows';
    this.rowsDepth = this.openers.length;
    this.awaitingElement = true;
  }

  private openElement(index: number, code: number): void {
    const bracketed = code === OPEN_BRACE || code === OPEN_BRACKET;
    this.element = { line: this.line, column: this.offset + index - this.lineStart, pieces: [], start: index, characters: 0, bracketed };
    this.awaitingElement = false;
  }

  private *scanRows(code: number, index: number, chunk: string): Generator<SplitterOutput> {
    const opening = this.element === undefined;
    if (this.element === undefined) {
      if (code === COMMA) {
        if (this.awaitingElement)
          yield { kind: 'bad-element', line: this.line, message: 'empty element: two commas in a row, or a comma right after [' };
        this.awaitingElement = true;
        return;
      }
      if (code === CLOSE_BRACKET) return this.closeRows();
      if (code === CLOSE_BRACE) {
        yield { kind: 'bad-element', line: this.line, message: 'unexpected } between elements' };
        return;
      }
      this.openElement(index, code);
    }
    const atRowsLevel = this.openers.length === this.rowsDepth;
    if (code === QUOTE) {
      this.inString = true;
    } else if (code === OPEN_BRACE || code === OPEN_BRACKET) {
      // Checked only here, at an opening bracket, so the scan of every other character costs nothing more.
      if (atRowsLevel && !opening) yield* this.splitAtMissingComma(code, index, chunk);
      this.openers.push(code);
    } else if (code === COMMA && atRowsLevel) {
      yield this.finishElement(chunk.slice(this.element?.start ?? index, index));
      this.awaitingElement = true;
    } else if (code === CLOSE_BRACE || code === CLOSE_BRACKET) {
      yield* this.closeInElement(code, index, chunk);
    }
  }

  private *closeInElement(code: number, index: number, chunk: string): Generator<SplitterOutput> {
    const match = this.openers.lastIndexOf(code === CLOSE_BRACE ? OPEN_BRACE : OPEN_BRACKET);
    if (match >= this.rowsDepth) {
      if (match !== this.openers.length - 1) this.markProblem('brackets do not match: a { or [ is not closed');
      this.openers.length = match;
    } else if (code === CLOSE_BRACKET) {
      // This bracket closes the rows array: whatever the element left open is lost.
      if (this.openers.length > this.rowsDepth) this.markProblem('a { or [ is not closed before the array ends');
      this.openers.length = this.rowsDepth;
      yield this.finishElement(chunk.slice(this.element?.start ?? index, index));
      this.closeRows();
    } else {
      this.markProblem('unexpected }: it closes nothing that is open');
    }
  }

  /** A { or [ at the rows level inside an element: after a whole bracketed element, the next one starts here. */
  private *splitAtMissingComma(code: number, index: number, chunk: string): Generator<SplitterOutput> {
    const element = this.element;
    if (element === undefined || !element.bracketed || element.problem !== undefined) return;
    yield this.finishElement(chunk.slice(element.start, index));
    yield { kind: 'document-error', line: this.line, ...MISSING_COMMA };
    this.openElement(index, code);
  }

  private markProblem(problem: string): void {
    if (this.element !== undefined) this.element.problem ??= problem;
  }

  private finishElement(tail: string): SplitterOutput {
    const element = this.element;
    if (element === undefined) throw new Error('finishElement called with no open element');
    this.element = undefined;
    if (element.problem !== undefined) return { kind: 'bad-element', line: element.line, message: element.problem };
    const characters = element.characters + tail.length;
    if (characters > this.maxElementCharacters) return { kind: 'oversized-element', line: element.line, characters };
    element.pieces.push(tail);
    return { kind: 'element', line: element.line, text: element.pieces.join('') };
  }

  private closeRows(): void {
    this.openers.pop();
    this.phase = this.openers.length === 0 ? 'after-document' : 'wrapper';
  }

  private *scanWrapper(code: number, index: number): Generator<SplitterOutput> {
    if (code === QUOTE) {
      this.inString = true;
      if (this.openers.length === 1) [this.keyPieces, this.keyStart] = [[], index + 1];
    } else if (code === OPEN_BRACKET && this.openers.length === 1 && ROW_ARRAY_KEYS.includes(this.lastKey)) {
      // In valid JSON the last string read at the top level is the key of this value.
      this.openers.push(code);
      this.foundRowsArray = true;
      this.enterRows();
    } else if (code === OPEN_BRACE || code === OPEN_BRACKET) {
      this.openers.push(code);
    } else if (code === CLOSE_BRACE || code === CLOSE_BRACKET) {
      this.openers.pop();
      if (this.openers.length > 0) return;
      this.phase = 'after-document';
      if (!this.foundRowsArray) yield { kind: 'document-error', line: this.wrapperLine, ...NO_ROWS_IN_OBJECT };
    }
  }

  private finishKey(tail: string): void {
    const raw = (this.keyPieces ?? []).join('') + tail;
    this.keyPieces = undefined;
    try {
      this.lastKey = String(JSON.parse(`"${raw}"`));
    } catch {
      this.lastKey = raw;
    }
  }
}
