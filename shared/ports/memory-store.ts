import { createHash } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { assertValidKey, type ObjectStore } from './object-store.js';

/** An ObjectStore in memory, for tests and for runs that keep nothing. */
export class MemoryStore implements ObjectStore {
  private readonly objects = new Map<string, Uint8Array>();

  async get(key: string): Promise<Uint8Array | undefined> {
    assertValidKey(key);
    return this.objects.get(key);
  }

  async put(key: string, body: Uint8Array | string, options: { ifNoneMatch?: boolean } = {}): Promise<{ written: boolean }> {
    assertValidKey(key);
    if (options.ifNoneMatch && this.objects.has(key)) return { written: false };
    this.objects.set(key, typeof body === 'string' ? new TextEncoder().encode(body) : body);
    return { written: true };
  }

  async *list(prefix: string): AsyncIterable<string> {
    yield* [...this.objects.keys()].filter((key) => key.startsWith(prefix)).sort();
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
    this.objects.delete(key);
  }
}
