import { decodeField } from './byte-lines.js';

/**
 * A field that usually repeats from line to line (the topic id, the run tag):
 * decoded only when its bytes change, so a 10-million-line run makes a few
 * thousand strings for it instead of ten million.
 */
export class RepeatedField {
  // A plain Uint8Array from the start, as the copies made later: one object shape throughout.
  private bytes: Uint8Array = new Uint8Array(0);
  text = '';

  /** Returns true when the field differs from the previous line's. */
  update(buffer: Buffer, start: number, end: number): boolean {
    if (this.matches(buffer, start, end)) return false;
    // A copy: the reader reuses its buffer for the next chunk of the file, and a view would then compare the new bytes with themselves.
    this.bytes = Uint8Array.prototype.slice.call(buffer, start, end);
    this.text = decodeField(buffer, start, end);
    return true;
  }

  /** Whether `buffer[start, end)` holds the field's bytes. A plain loop: Buffer.compare's native call costs more than comparing a few bytes. */
  matches(buffer: Buffer, start: number, end: number): boolean {
    const bytes = this.bytes;
    if (end - start !== bytes.length) return false;
    for (let index = 0; index < bytes.length; index++) {
      if (bytes[index] !== buffer[start + index]) return false;
    }
    return true;
  }
}

/**
 * The entry of a map for a line's topic, keyed by a repeated field: the
 * previous line's entry while the field's bytes stay the same, else the one
 * found (or created) under the field's text. Both file readers group their
 * lines by topic this way.
 */
export class TopicEntries<Entry> {
  private readonly field = new RepeatedField();
  /** The entry of the last line looked up. */
  current: Entry | undefined;

  constructor(
    private readonly entries: Map<string, Entry>,
    private readonly create: () => Entry,
  ) {}

  /** The topic id of the last line looked up. */
  get topicId(): string {
    return this.field.text;
  }

  of(buffer: Buffer, start: number, end: number): Entry {
    let current = this.current;
    if (this.field.update(buffer, start, end) || current === undefined) {
      current = this.entries.get(this.field.text);
      if (current === undefined) {
        current = this.create();
        this.entries.set(this.field.text, current);
      }
      this.current = current;
    }
    return current;
  }
}
