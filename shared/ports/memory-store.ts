import { createHash } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { assertValidKey, type ObjectStore } from './object-store.js';

/** An ObjectStore in memory, for tests and for runs that keep nothing. */
export class MemoryStore implements ObjectStore {
  private readonly objects = new Map<string, Uint8Array>();
  /**
   * The keys in order, for list(): a run's reducer lists one prefix after
   * another among tens of thousands of keys, and sorting them all for each
   * list was most of a large test's time. Keys put since the last list are
   * sorted on their own and merged in; a delete has them sorted again.
   */
  private sorted: string[] = [];
  private added: string[] = [];
  private deleted = false;

  async get(key: string): Promise<Uint8Array | undefined> {
    assertValidKey(key);
    return this.objects.get(key);
  }

  async put(key: string, body: Uint8Array | string, options: { ifNoneMatch?: boolean } = {}): Promise<{ written: boolean }> {
    assertValidKey(key);
    const known = this.objects.has(key);
    if (options.ifNoneMatch && known) return { written: false };
    if (!known) this.added.push(key);
    this.objects.set(key, typeof body === 'string' ? new TextEncoder().encode(body) : body);
    return { written: true };
  }

  async *list(prefix: string): AsyncIterable<string> {
    const keys = this.keysInOrder();
    // The first key at or after the prefix (keys compare as sort() orders them), then those that start with it.
    let low = 0;
    let high = keys.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((keys[middle] as string) < prefix) low = middle + 1;
      else high = middle;
    }
    let end = low;
    while (end < keys.length && (keys[end] as string).startsWith(prefix)) end++;
    yield* keys.slice(low, end);
  }

  private keysInOrder(): string[] {
    if (this.deleted) {
      this.sorted = [...this.objects.keys()].sort();
      this.added = [];
      this.deleted = false;
    } else if (this.added.length > 0) {
      const added = this.added.sort();
      const merged: string[] = [];
      let left = 0;
      let right = 0;
      while (left < this.sorted.length || right < added.length) {
        const fromLeft = right >= added.length || (left < this.sorted.length && (this.sorted[left] as string) < (added[right] as string));
        merged.push((fromLeft ? this.sorted[left++] : added[right++]) as string);
      }
      this.sorted = merged;
      this.added = [];
    }
    return this.sorted;
  }

  async download(key: string, path: string): Promise<boolean> {
    const body = await this.get(key);
    if (body === undefined) return false;
    await writeFile(path, body);
    return true;
  }

  async upload(key: string, path: string): Promise<{ etag: string }> {
    const body = await readFile(path);
    await this.put(key, body);
    return { etag: createHash('md5').update(body).digest('hex') };
  }

  async delete(key: string): Promise<void> {
    assertValidKey(key);
    if (this.objects.delete(key)) this.deleted = true;
  }
}
