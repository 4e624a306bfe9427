import type { ObjectStore } from '../../shared/ports/object-store.js';

/** A store that passes everything to another and records the keys read and the prefixes listed. */
export class RecordingStore implements ObjectStore {
  readonly reads: string[] = [];
  readonly listings: string[] = [];

  constructor(private readonly inner: ObjectStore) {}

  get(key: string): Promise<Uint8Array | undefined> {
    this.reads.push(key);
    return this.inner.get(key);
  }

  put(key: string, body: Uint8Array | string, options?: { ifNoneMatch?: boolean }): Promise<{ written: boolean }> {
    return this.inner.put(key, body, options);
  }

  list(prefix: string): AsyncIterable<string> {
    this.listings.push(prefix);
    return this.inner.list(prefix);
  }

  download(key: string, path: string): Promise<boolean> {
    this.reads.push(key);
    return this.inner.download(key, path);
  }

  upload(key: string, path: string): Promise<{ etag: string }>;
  upload(key: string, path: string, options: { readonly etag: false }): Promise<unknown>;
  upload(key: string, path: string, options?: { readonly etag: false }): Promise<unknown> {
    return options === undefined ? this.inner.upload(key, path) : this.inner.upload(key, path, options);
  }

  delete(key: string): Promise<void> {
    return this.inner.delete(key);
  }
}
