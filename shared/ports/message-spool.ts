import { closeSync, fstatSync, mkdirSync, openSync, readFileSync, readSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** How an in-process queue spools (InProcessQueueOptions.spool). */
export interface QueueSpoolOptions {
  /** Where the spool's files go: created on the first file, removed once the spool has none left. */
  readonly folder: string;
  /** Bytes of message bodies the queue holds in memory before it spools. */
  readonly memoryBytes: number;
  /** Bytes in one spool file (SPOOL_SEGMENT_BYTES by default). */
  readonly segmentBytes?: number;
}

/** A spool file's size: a few milliseconds to write or read back. */
export const SPOOL_SEGMENT_BYTES = 4 * 1024 * 1024;

/** A message waiting in a spool: everything the queue needs to deliver it as if it had never left memory. */
export interface SpooledMessage {
  /** Send order (InProcessQueue's sequence). */
  readonly sequence: number;
  readonly body: string;
  /** The body's size in UTF-8 bytes. */
  readonly bytes: number;
  readonly sentTimestamp: number;
  /** Receives before it was spooled: more than 0 for a message moved to a dead-letter queue. */
  readonly receiveCount: number;
}

/** Messages encoded one after another (the format below), decoded from `offset` on. */
interface Encoded {
  readonly bytes: Buffer;
  offset: number;
}

/**
 * A first-in, first-out store of queue messages on disk, for a queue that
 * holds more messages than it should keep in memory. Messages are encoded as
 * they come into one buffer, which goes to a file of its own once it holds
 * SPOOL_SEGMENT_BYTES; they are decoded one at a time, when the queue is
 * about to deliver them, from the oldest file read back whole. So the spool
 * holds a few buffers of about a file's size, used again file after file, and
 * no message as a string until it is next, whatever the number of messages
 * spooled.
 *
 * The file operations are synchronous on purpose: the queue decides that the
 * oldest spooled message comes next and loads it in one step, so no other
 * receive can take a later message in between. Each is one file of a few MiB,
 * a few milliseconds.
 *
 * Per message, a line `<sequence> <sentTimestamp> <receiveCount> <bytes>`,
 * then the body's bytes and a newline: a body may hold any character,
 * newlines included.
 */
export class MessageSpool {
  /** Files not yet read, oldest first. */
  private readonly files: string[] = [];
  private filesWritten = 0;
  /** The messages after the files: encoded, not yet written. */
  private writing: Buffer = Buffer.alloc(0);
  private written = 0;
  /** The oldest messages, read back from a file (or taken from `writing`), not yet decoded; `reading.bytes` views `readBuffer`. */
  private reading: Encoded | undefined;
  private readBuffer: Buffer | undefined;
  /** A buffer no messages are in: the next file is read into it, so reading a million messages allocates no buffer per file. */
  private spare: Buffer | undefined;
  /** The next message, decoded. */
  private next: SpooledMessage | undefined;
  private spooled = 0;

  constructor(
    private readonly queueName: string,
    private readonly options: { readonly folder: string; readonly segmentBytes: number },
  ) {}

  /** Messages spooled. */
  get length(): number {
    return this.spooled;
  }

  /** Appends a message; its sequence must be higher than every message's already spooled. */
  append(message: SpooledMessage): void {
    const header = `${message.sequence} ${message.sentTimestamp} ${message.receiveCount} ${message.bytes}\n`;
    const size = header.length + message.bytes + 1;
    if (this.written + size > this.writing.length) {
      const larger = Buffer.allocUnsafe(Math.max(this.options.segmentBytes + 64 * 1024, 2 * (this.written + size)));
      this.writing.copy(larger, 0, 0, this.written);
      this.writing = larger;
    }
    this.written += this.writing.write(header, this.written, 'latin1');
    this.written += this.writing.write(message.body, this.written, 'utf8');
    this.writing[this.written++] = 10;
    this.spooled += 1;
    if (this.written >= this.options.segmentBytes) this.writeFile();
  }

  /** The sequence of the oldest spooled message (decoding it, reading its file if need be); undefined when there is none. */
  nextSequence(): number | undefined {
    this.next ??= this.decodeNext();
    return this.next?.sequence;
  }

  /** Removes the oldest spooled message and returns it. */
  takeNext(): SpooledMessage | undefined {
    const message = this.next ?? this.decodeNext();
    this.next = undefined;
    if (message !== undefined) this.spooled -= 1;
    return message;
  }

  /** Every spooled message, in send order, left in the spool: for tests and diagnostics. */
  peekAll(): SpooledMessage[] {
    const sources: Encoded[] = [
      ...(this.reading === undefined ? [] : [{ bytes: this.reading.bytes, offset: this.reading.offset }]),
      ...this.files.map((path) => ({ bytes: this.readFile(path), offset: 0 })),
      { bytes: this.writing.subarray(0, this.written), offset: 0 },
    ];
    const messages = this.next === undefined ? [] : [this.next];
    for (const source of sources)
      for (let message = this.decode(source); message !== undefined; message = this.decode(source)) messages.push(message);
    return messages;
  }

  /** The oldest message not yet decoded: from what was read, else the oldest file, else what is still being written. */
  private decodeNext(): SpooledMessage | undefined {
    if (this.reading === undefined || this.reading.offset >= this.reading.bytes.length) {
      // Every message of the buffer read is decoded (copied into strings): it can take the next file.
      this.spare ??= this.readBuffer;
      this.reading = undefined;
      this.readBuffer = undefined;
      const next = this.nextEncoded();
      if (next === undefined) return undefined;
      this.readBuffer = next.buffer;
      this.reading = { bytes: next.buffer.subarray(0, next.length), offset: 0 };
    }
    return this.decode(this.reading);
  }

  /** The oldest encoded messages not yet read: the oldest file, else what is being written. */
  private nextEncoded(): { buffer: Buffer; length: number } | undefined {
    const path = this.files.shift();
    if (path !== undefined) {
      const read = this.readInto(path, this.takeSpare());
      this.removeFile(path);
      return read;
    }
    if (this.written === 0) return undefined;
    const taken = { buffer: this.writing, length: this.written };
    this.writing = this.takeSpare();
    this.written = 0;
    return taken;
  }

  private takeSpare(): Buffer {
    const spare = this.spare ?? Buffer.alloc(0);
    this.spare = undefined;
    return spare;
  }

  private decode(source: Encoded): SpooledMessage | undefined {
    const { bytes, offset } = source;
    if (offset >= bytes.length) return undefined;
    const lineEnd = bytes.indexOf(10, offset);
    const header = lineEnd < 0 ? [] : bytes.toString('latin1', offset, lineEnd).split(' ').map(Number);
    const [sequence, sentTimestamp, receiveCount, length] = header as [number, number, number, number];
    const start = lineEnd + 1;
    // The body and its newline must follow the header whole.
    if (header.length !== 4 || header.some((value) => !Number.isSafeInteger(value)) || start + length >= bytes.length) {
      throw new Error(
        `The ${this.queueName} queue's spool is damaged at byte ${offset} of a file: expected "<sequence> <sent> <receives> <bytes>" and that many bytes`,
      );
    }
    source.offset = start + length + 1;
    return { sequence, sentTimestamp, receiveCount, bytes: length, body: bytes.toString('utf8', start, start + length) };
  }

  private writeFile(): void {
    const path = join(this.options.folder, `segment-${String(this.filesWritten).padStart(8, '0')}`);
    try {
      mkdirSync(this.options.folder, { recursive: true });
      writeFileSync(path, this.writing.subarray(0, this.written));
    } catch (error) {
      // The messages stay in memory: nothing is lost, the spool only holds more than it should.
      // `path` as node:fs gives it: the line that ends the run names this file, not the temp folder in general (full-disk.ts).
      throw Object.assign(
        new Error(
          `The ${this.queueName} queue could not write its spool file ${path}: ${String(error)}. Free disk space there, or point TMPDIR at a folder with room.`,
          { cause: error },
        ),
        { path },
      );
    }
    this.filesWritten += 1;
    this.files.push(path);
    this.written = 0;
  }

  /** A file's bytes, read into `buffer` when it is large enough. */
  private readInto(path: string, buffer: Buffer): { buffer: Buffer; length: number } {
    try {
      const file = openSync(path, 'r');
      try {
        const length = fstatSync(file).size;
        const target = buffer.length >= length ? buffer : Buffer.allocUnsafe(Math.max(length, this.options.segmentBytes + 64 * 1024));
        for (let read = 0; read < length; ) {
          const count = readSync(file, target, read, length - read, read);
          if (count === 0) throw new Error(`it ended after ${read} of ${length} bytes`);
          read += count;
        }
        return { buffer: target, length };
      } finally {
        closeSync(file);
      }
    } catch (error) {
      throw new Error(
        `The ${this.queueName} queue could not read back its spool file ${path}: ${String(error)}. Its messages are lost; finish the run with assay resume.`,
        { cause: error },
      );
    }
  }

  private readFile(path: string): Buffer {
    try {
      return readFileSync(path);
    } catch (error) {
      throw new Error(
        `The ${this.queueName} queue could not read back its spool file ${path}: ${String(error)}. Its messages are lost; finish the run with assay resume.`,
        { cause: error },
      );
    }
  }

  private removeFile(path: string): void {
    unlinkSync(path);
    // A drained spool leaves nothing on disk; the folder comes back with the next file.
    if (this.files.length === 0) rmSync(this.options.folder, { recursive: true, force: true });
  }
}
