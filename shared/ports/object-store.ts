/**
 * Where assay keeps objects: datasets, results, reports and the judge cache.
 * Keys are `/`-separated paths (`cache/judges/ab/abcd....json`). Adapters: a
 * local folder (local-folder-store.ts), memory (memory-store.ts), and S3 when
 * deployed. Nothing outside the adapters knows which one it talks to.
 */
export interface ObjectStore {
  /** The object's bytes, or undefined when there is none. */
  get(key: string): Promise<Uint8Array | undefined>;
  /**
   * Writes the object. With `ifNoneMatch`, the write happens only when no
   * object has the key (S3's `If-None-Match: *`): a second writer loses and
   * gets `written: false`.
   */
  put(key: string, body: Uint8Array | string, options?: { ifNoneMatch?: boolean }): Promise<{ written: boolean }>;
  /** Keys under a prefix, in byte order. */
  list(prefix: string): AsyncIterable<string>;
  /**
   * Copies the object to a local file as a stream (datasets can be larger
   * than memory). Returns false when there is no such object.
   */
  download(key: string, path: string): Promise<boolean>;
  /**
   * Stores a local file as a stream; returns the object's ETag (S3's, or a
   * content hash). With `{ etag: false }` the caller needs no ETag, and a
   * store that would compute one (the local folder hashes the whole file)
   * does not.
   */
  upload(key: string, path: string): Promise<{ etag: string }>;
  upload(key: string, path: string, options: { readonly etag: false }): Promise<unknown>;
  /** Removes the object; removing one that does not exist is not an error (as in S3). */
  delete(key: string): Promise<void>;
}

/**
 * A store that tells which version of an object it holds (S3's ETag)
 * without reading it, and which version it read: a reader that keeps a copy
 * (`assay view`'s local copies of cases.jsonl) checks the copy against the
 * object and reads a changed object again.
 */
export interface VersionedObjects {
  /** The object's version, or undefined when there is none. */
  versionOf(key: string): Promise<string | undefined>;
  /** The object's bytes and their version, or undefined when there is none. */
  getVersioned(key: string): Promise<{ readonly bytes: Uint8Array; readonly version: string } | undefined>;
  /** Copies the object to a local file as a stream and returns the version copied, or undefined when there is none. */
  downloadVersioned(key: string, path: string): Promise<string | undefined>;
}

/** Whether a store is also VersionedObjects. */
export function hasVersions(store: ObjectStore): store is ObjectStore & VersionedObjects {
  const candidate = store as Partial<VersionedObjects>;
  return (
    typeof candidate.versionOf === 'function' &&
    typeof candidate.getVersioned === 'function' &&
    typeof candidate.downloadVersioned === 'function'
  );
}

/** Rejects keys that could escape a store's root or mean different things on different stores. */
export function assertValidKey(key: string): void {
  if (
    key === '' ||
    key.startsWith('/') ||
    key.endsWith('/') ||
    key.split('/').some((part) => part === '' || part === '.' || part === '..')
  ) {
    throw new Error(`Invalid object key "${key}": expected a relative path such as "cache/judges/ab/key.json"`);
  }
}
