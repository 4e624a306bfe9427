import { appendFile, mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

/** Buffered text is written out once it reaches this many characters. */
const FLUSH_CHARACTERS = 4 * 1024 * 1024;

/**
 * Spill files in a folder, one per partition: text added to a partition is
 * buffered and appended to its file once the buffers hold FLUSH_CHARACTERS,
 * so memory stays bounded whatever the input's size. The spilling loaders
 * (rows grouped into cases, TREC run lines grouped by topic) share it.
 */
export class PartitionFiles {
  private readonly buffers: string[][];
  private buffered = 0;
  private prepared = false;

  constructor(
    private readonly folder: string,
    readonly partitions: number,
    private readonly extension: string,
  ) {
    this.buffers = Array.from({ length: partitions }, () => []);
  }

  /** Buffers text for a partition, writing the buffers out when they are full. */
  async add(partition: number, text: string): Promise<void> {
    this.push(partition, text);
    await this.flushIfFull();
  }

  /** Buffers text for a partition without writing; for a caller that flushes between chunks of its input. */
  push(partition: number, text: string): void {
    (this.buffers[partition] as string[]).push(text);
    this.buffered += text.length;
  }

  async flushIfFull(): Promise<void> {
    if (this.buffered >= FLUSH_CHARACTERS) await this.flush();
  }

  /** Writes what is buffered; call before reading partitions. */
  async flush(): Promise<void> {
    if (!this.prepared) {
      await mkdir(this.folder, { recursive: true });
      this.prepared = true;
    }
    // One append per partition, all at once: each file still gets its texts in order.
    const appends: Promise<void>[] = [];
    for (const [partition, texts] of this.buffers.entries()) {
      if (texts.length === 0) continue;
      appends.push(appendFile(this.pathOf(partition), texts.join('')));
      texts.length = 0;
    }
    this.buffered = 0;
    await Promise.all(appends);
  }

  /** A partition's whole text; empty when nothing was added to it. */
  async read(partition: number): Promise<string> {
    return readFile(this.pathOf(partition), 'utf8').catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return '';
      throw error;
    });
  }

  private pathOf(partition: number): string {
    return join(this.folder, `partition-${partition}.${this.extension}`);
  }
}
