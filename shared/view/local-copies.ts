import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { StoredObject, ViewStore } from './stored-object.js';

/** Copies kept at once: a few runs' cases.jsonl, which can be gigabytes each. */
const CAPACITY = 4;

interface Copy {
  /** The version of the object the copy holds (once made: the version of the bytes copied). */
  version: string;
  readonly made: Promise<StoredObject<string>>;
}

/**
 * Local copies of large store objects (cases.jsonl), so that the pages of a
 * run's cases read a file as a stream instead of fetching the object again
 * for every page. Each use asks the store for the object's version (a local
 * file's identity, size and modification time; an S3 ETag: a stat or a HEAD,
 * not a read), and a copy is used only while it is of that version: a
 * changed or repaired object is copied again, and one that is gone or
 * refused is said so. The oldest copy goes once more than CAPACITY are
 * kept; two requests for the same copy share one download.
 */
export class LocalCopies {
  private readonly copies = new Map<string, Copy>();
  private made = 0;

  constructor(
    private readonly store: ViewStore,
    private readonly folder: string,
  ) {}

  /** The local path of a copy of the object as it is now, with its version; or why there is none. */
  async path(key: string): Promise<StoredObject<string>> {
    const current = await this.store.version(key);
    const kept = this.copies.get(key);
    if (current.state !== 'found') {
      if (kept !== undefined) this.drop(key, kept);
      return current;
    }
    if (kept !== undefined && kept.version === current.version) {
      // Most recently used last, so the oldest is first to go.
      this.copies.delete(key);
      this.copies.set(key, kept);
      return kept.made;
    }
    if (kept !== undefined) this.drop(key, kept);
    return this.copy(key, current.version).made;
  }

  private copy(key: string, version: string): Copy {
    const target = join(this.folder, `copy-${++this.made}`);
    const forget = async () => {
      if (this.copies.get(key) === copy) this.copies.delete(key);
      await rm(target, { force: true });
    };
    const copy: Copy = {
      version,
      made: this.store.copy(key, target).then(
        async (copied) => {
          if (copied.state !== 'found') {
            await forget();
            return copied;
          }
          // The object may have changed between the version asked and the copy: the copy is of what was read.
          copy.version = copied.version;
          return { state: 'found', value: target, version: copied.version };
        },
        async (error: unknown) => {
          await forget();
          throw error;
        },
      ),
    };
    this.copies.set(key, copy);
    for (const [oldest, kept] of this.copies) {
      if (this.copies.size <= CAPACITY) break;
      this.drop(oldest, kept);
    }
    return copy;
  }

  private drop(key: string, copy: Copy): void {
    if (this.copies.get(key) === copy) this.copies.delete(key);
    // A reader still streaming the file keeps reading it: an unlinked file lives on while it is open. A failed
    // copy has no file to remove, and its error went to the request that asked for the copy.
    void copy.made.then((made) => (made.state === 'found' ? rm(made.value, { force: true }) : undefined)).catch(() => undefined);
  }
}
