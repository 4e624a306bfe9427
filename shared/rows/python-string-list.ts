import type { Result } from '../schema/result.js';

/**
 * Reads a Python list of strings as `repr()` (and so pandas' `to_csv`) writes it:
 * `['first context', "it's second"]`. RAGAS exports store their context lists
 * this way. Only strings are accepted: anything else is an error, because a
 * guess about other Python values would silently change the data.
 */

export type PythonListResult = Result<string[]>;

const SIMPLE_ESCAPES: Readonly<Record<string, string>> = {
  '\\': '\\',
  "'": "'",
  '"': '"',
  n: '\n',
  r: '\r',
  t: '\t',
  b: '\b',
  f: '\f',
  v: '\v',
  a: '\x07',
  '0': '\0',
  '\n': '',
};

const HEX_ESCAPE_LENGTHS: Readonly<Record<string, number>> = { x: 2, u: 4, U: 8 };

export function parsePythonStringList(text: string): PythonListResult {
  const reader = new ListReader(text);
  try {
    return { ok: true, value: reader.readList() };
  } catch (error) {
    if (error instanceof SyntaxError) return { ok: false, error: error.message };
    throw error;
  }
}

class ListReader {
  private position = 0;

  constructor(private readonly text: string) {}

  readList(): string[] {
    this.skipSpace();
    this.expect('[');
    const items: string[] = [];
    this.skipSpace();
    while (this.peek() !== ']') {
      items.push(this.readString());
      this.skipSpace();
      if (this.peek() === ',') {
        this.position += 1;
        this.skipSpace();
      } else if (this.peek() !== ']') {
        this.fail(this.peek() === '' ? 'the list is not closed with ]' : `expected , or ] after item ${items.length}`);
      }
    }
    this.position += 1;
    this.skipSpace();
    if (this.position < this.text.length) this.fail('unexpected text after the closing ]');
    return items;
  }

  private readString(): string {
    let raw = false;
    while (/[rRuU]/.test(this.peek())) {
      raw ||= /[rR]/.test(this.peek());
      this.position += 1;
    }
    const quote = this.peek();
    if (quote !== "'" && quote !== '"') {
      this.fail(
        quote === ''
          ? 'the list is not closed with ]'
          : `expected a quoted string, found ${JSON.stringify(this.text.slice(this.position, this.position + 12))}`,
      );
    }
    this.position += 1;
    let value = '';
    for (;;) {
      const character = this.peek();
      if (character === '') this.fail('a string is not closed');
      this.position += 1;
      if (character === quote) return value;
      if (character !== '\\') {
        value += character;
      } else if (raw) {
        // A raw string keeps the backslash; it only stops the next quote from ending the string.
        value += `\\${this.text[this.position] ?? ''}`;
        this.position += 1;
      } else {
        value += this.readEscape();
      }
    }
  }

  private readEscape(): string {
    const marker = this.peek();
    this.position += 1;
    const simple = SIMPLE_ESCAPES[marker];
    if (simple !== undefined) return simple;
    const length = HEX_ESCAPE_LENGTHS[marker];
    if (length !== undefined) {
      const digits = this.text.slice(this.position, this.position + length);
      if (!new RegExp(`^[0-9a-fA-F]{${length}}$`).test(digits)) this.fail(`bad \\${marker} escape`);
      this.position += length;
      const codePoint = Number.parseInt(digits, 16);
      if (codePoint > 0x10ffff) this.fail(`\\${marker}${digits} is not a Unicode character`);
      return String.fromCodePoint(codePoint);
    }
    // Python keeps an unknown escape as written, backslash included.
    return `\\${marker}`;
  }

  private skipSpace(): void {
    while (/\s/.test(this.peek())) this.position += 1;
  }

  private expect(character: string): void {
    if (this.peek() !== character) this.fail(`expected ${character}`);
    this.position += 1;
  }

  private peek(): string {
    return this.text[this.position] ?? '';
  }

  private fail(message: string): never {
    throw new SyntaxError(`${message} at character ${this.position + 1}`);
  }
}
