import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { ObjectStore } from '../ports/object-store.js';

/** Copies kept at once: a few runs' cases.jsonl, which can be gigabytes each. */
const CAPACITY = 4;

/**
 * Local copies of large store objects (cases.jsonl), so that the pages of a
 * run's cases read a file as a stream instead of fetching the object again
 * for every page. A copy is made again when the object's `version` changes
 * (the hash of the report written with it: a redrive rewrites both), and
 * the oldest goes once more than CAPACITY are kept. Two requests for the
 * same copy share one download.
 */
export class LocalCopies {
  private readonly copies = new Map<string, { version: string; path: Promise<string | undefined> }>();
  private made = 0;

  constructor(
    private readonly store: ObjectStore,
    private readonly folder: string,
  ) {}

  /** The local path of the object's copy, or undefined when the store has no such object. */
  path(key: string, version: string): Promise<string | undefined> {
    const kept = this.copies.get(key);
    if (kept !== undefined && kept.version === version) {
      // Most recently used last, so the oldest is first to go.
      this.copies.delete(key);
      this.copies.set(key, kept);
      return kept.path;
    }
    if (kept !== undefined) this.drop(key, kept.path);
    const target = join(this.folder, `copy-${++this.made}`);
    const path = this.store.download(key, target).then(
      (found) => (found ? target : undefined),
      async (error: unknown) => {
        this.copies.delete(key);
        await rm(target, { force: true });
        throw error;
      },
    );
    this.copies.set(key, { version, path });
    for (const [oldest, copy] of this.copies) {
      if (this.copies.size <= CAPACITY) break;
      this.drop(oldest, copy.path);
    }
    return path;
  }

  private drop(key: string, path: Promise<string | undefined>): void {
    this.copies.delete(key);
    // A reader still streaming the file keeps reading it: an unlinked file lives on while it is open. A failed
    // download has no file to remove, and its error went to the request that asked for the copy.
    void path.then((file) => (file === undefined ? undefined : rm(file, { force: true }))).catch(() => undefined);
  }
}
