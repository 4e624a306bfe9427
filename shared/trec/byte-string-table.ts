/**
 * An append-only set of byte strings (document ids as they appear in the
 * file), each with a dense integer id, stored in one growing byte array and
 * found through an open-addressing hash table.
 *
 * Why not a Map<string, ...>: a run file of ten million lines would make ten
 * million JavaScript strings only to hash and compare them; keeping the bytes
 * costs a copy of a few bytes a line and no garbage. Comparing bytes is also
 * exactly C's strcmp order, which trec_eval's tie-breaking uses.
 */
export class ByteStringTable {
  private bytes: Uint8Array;
  private used = 0;
  private starts: Int32Array;
  private hashes: Int32Array;
  private slots: Int32Array;
  private mask: number;
  /** Number of strings in the table; ids run from 0 to size - 1. */
  size = 0;

  constructor(expectedSize = 16) {
    const capacity = Math.max(16, expectedSize);
    const slotCount = nextPowerOfTwo(capacity * 2);
    // One allocation for the four arrays (a run makes one table a topic); each grows into its own.
    const entryBytes = (capacity + 1) * Int32Array.BYTES_PER_ELEMENT;
    const slotBytes = slotCount * Int32Array.BYTES_PER_ELEMENT;
    const memory = new ArrayBuffer(slotBytes + 2 * entryBytes + capacity * 12);
    this.slots = new Int32Array(memory, 0, slotCount).fill(-1);
    this.starts = new Int32Array(memory, slotBytes, capacity + 1);
    this.hashes = new Int32Array(memory, slotBytes + entryBytes, capacity + 1);
    this.bytes = new Uint8Array(memory, slotBytes + 2 * entryBytes, capacity * 12);
    this.mask = slotCount - 1;
  }

  /**
   * Adds `source[start, end)` and returns its new id, or returns
   * `-(existing id) - 1` when the table already holds those bytes.
   */
  add(source: Uint8Array, start: number, end: number): number {
    return this.addHashed(source, start, end, hashBytes(source, start, end));
  }

  /**
   * add, for a caller that hashed the bytes with {@link hashBytes} while
   * scanning them. One probe sequence both finds an equal string and, when
   * there is none, the free slot the new one takes.
   */
  addHashed(source: Uint8Array, start: number, end: number, hash: number): number {
    const length = end - start;
    const mask = this.mask;
    let slot = hash & mask;
    for (let existing = this.slots[slot] as number; existing !== -1; existing = this.slots[slot] as number) {
      if (this.hashes[existing] === hash) {
        const from = this.starts[existing] as number;
        if ((this.starts[existing + 1] as number) - from === length && this.equalBytes(from, source, start, length)) return -existing - 1;
      }
      slot = (slot + 1) & mask;
    }
    const id = this.size;
    if (id + 1 >= this.starts.length) this.growEntries();
    // starts and hashes always have the same length, so one check covers both.
    if (this.used + length > this.bytes.length) this.growBytes(this.used + length);
    // A byte loop: subarray + set cost more than copying a short id.
    const bytes = this.bytes;
    const used = this.used;
    for (let offset = 0; offset < length; offset++) bytes[used + offset] = source[start + offset] as number;
    this.starts[id] = used;
    this.used = used + length;
    this.starts[id + 1] = this.used;
    this.hashes[id] = hash;
    this.size = id + 1;
    if (this.size * 2 > this.slots.length) this.rehash();
    else this.slots[slot] = id;
    return id;
  }

  /** The table's contents as plain typed arrays and numbers: what a worker thread is sent (a structured clone keeps no class). */
  toParts(): ByteStringTableParts {
    return { bytes: this.bytes, used: this.used, starts: this.starts, hashes: this.hashes, slots: this.slots, size: this.size };
  }

  /** The table whose toParts these are. */
  static fromParts(parts: ByteStringTableParts): ByteStringTable {
    const table = new ByteStringTable();
    table.bytes = parts.bytes;
    table.used = parts.used;
    table.starts = parts.starts;
    table.hashes = parts.hashes;
    table.slots = parts.slots;
    table.mask = parts.slots.length - 1;
    table.size = parts.size;
    return table;
  }

  /** Adds a string (encoded as UTF-8); same return values as add. */
  addText(text: string): number {
    const bytes = encoder.encode(text);
    return this.add(bytes, 0, bytes.length);
  }

  /** The id of a string (encoded as UTF-8), or -1. */
  findText(text: string): number {
    const bytes = encoder.encode(text);
    return this.find(bytes, 0, bytes.length);
  }

  /** Every string, by id. */
  texts(): string[] {
    return Array.from({ length: this.size }, (_, id) => this.text(id));
  }

  /** The id of `source[start, end)`, or -1. */
  find(source: Uint8Array, start: number, end: number): number {
    return this.findHashed(source, start, end, hashBytes(source, start, end));
  }

  /** The id in this table of string `id` of another table, or -1. */
  findFrom(other: ByteStringTable, id: number): number {
    const start = other.starts[id] as number;
    return this.findHashed(other.bytes, start, other.starts[id + 1] as number, other.hashes[id] as number);
  }

  /** Byte-order comparison of two ids (negative when a < b), as C's strcmp. */
  compare(a: number, b: number): number {
    const bytes = this.bytes;
    let indexA = this.starts[a] as number;
    let indexB = this.starts[b] as number;
    const endA = this.starts[a + 1] as number;
    const endB = this.starts[b + 1] as number;
    while (indexA < endA && indexB < endB) {
      const difference = (bytes[indexA] as number) - (bytes[indexB] as number);
      if (difference !== 0) return difference;
      indexA++;
      indexB++;
    }
    return endA - indexA - (endB - indexB);
  }

  /** The string of an id, decoded as UTF-8. */
  text(id: number): string {
    return decoder.decode(this.bytes.subarray(this.starts[id] as number, this.starts[id + 1] as number));
  }

  private findHashed(source: Uint8Array, start: number, end: number, hash: number): number {
    const length = end - start;
    let slot = hash & this.mask;
    for (;;) {
      const id = this.slots[slot] as number;
      if (id === -1) return -1;
      if (this.hashes[id] === hash) {
        const from = this.starts[id] as number;
        if ((this.starts[id + 1] as number) - from === length && this.equalBytes(from, source, start, length)) return id;
      }
      slot = (slot + 1) & this.mask;
    }
  }

  private equalBytes(from: number, source: Uint8Array, start: number, length: number): boolean {
    const bytes = this.bytes;
    for (let offset = 0; offset < length; offset++) {
      if (bytes[from + offset] !== source[start + offset]) return false;
    }
    return true;
  }

  private insertSlot(id: number, hash: number): void {
    let slot = hash & this.mask;
    while (this.slots[slot] !== -1) slot = (slot + 1) & this.mask;
    this.slots[slot] = id;
  }

  private rehash(): void {
    this.slots = new Int32Array(this.slots.length * 2).fill(-1);
    this.mask = this.slots.length - 1;
    for (let id = 0; id < this.size; id++) this.insertSlot(id, this.hashes[id] as number);
  }

  private growEntries(): void {
    const starts = new Int32Array(this.starts.length * 2);
    starts.set(this.starts);
    this.starts = starts;
    const hashes = new Int32Array(this.hashes.length * 2);
    hashes.set(this.hashes);
    this.hashes = hashes;
  }

  private growBytes(needed: number): void {
    const bytes = new Uint8Array(Math.max(needed, this.bytes.length * 2));
    bytes.set(this.bytes.subarray(0, this.used));
    this.bytes = bytes;
  }
}

/** A ByteStringTable taken apart by toParts. */
export interface ByteStringTableParts {
  readonly bytes: Uint8Array;
  readonly used: number;
  readonly starts: Int32Array;
  readonly hashes: Int32Array;
  readonly slots: Int32Array;
  readonly size: number;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** The FNV-1a hash before any byte. */
export const HASH_SEED = 0x811c9dc5 | 0;

/** The FNV-1a hash of the bytes so far and one more byte. */
export function hashStep(hash: number, byte: number): number {
  return Math.imul(hash ^ byte, 0x01000193);
}

/** FNV-1a, 32 bits: short keys, no dependency, good enough spread for linear probing. */
export function hashBytes(source: Uint8Array, start: number, end: number): number {
  let hash = HASH_SEED;
  for (let index = start; index < end; index++) hash = hashStep(hash, source[index] as number);
  return hash;
}

function nextPowerOfTwo(value: number): number {
  let power = 1;
  while (power < value) power *= 2;
  return power;
}
