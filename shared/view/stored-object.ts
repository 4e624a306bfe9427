/**
 * An object `assay view` looked for: found, with the version of what was
 * read (a local file's identity, size and modification time; an S3 ETag);
 * absent; or refused, with the reason: an object that is not a regular file
 * of the store (a symbolic link, a folder, a named pipe), never followed or
 * opened.
 */
export type StoredObject<Value> =
  | { readonly state: 'found'; readonly value: Value; readonly version: string }
  | { readonly state: 'absent' }
  | { readonly state: 'refused'; readonly reason: string };

/**
 * What `assay view` reads a store through: every read says which version it
 * read, so a copy is checked against the object it was made from, and a
 * local store is read only as regular files inside its folder.
 */
export interface ViewStore {
  /** Keys under a prefix, in byte order; throws RefusedListing when a folder the prefix names is not one (a link). */
  list(prefix: string): AsyncIterable<string>;
  read(key: string): Promise<StoredObject<Uint8Array>>;
  /** The object's version, without reading it. */
  version(key: string): Promise<StoredObject<undefined>>;
  /** Copies the object to a local file as a stream; the version is that of the bytes copied. */
  copy(key: string, path: string): Promise<StoredObject<undefined>>;
}

/** A listing that would follow a link, or read something that is no folder, as a folder. */
export class RefusedListing extends Error {
  constructor(
    readonly key: string,
    readonly reason: string,
  ) {
    super(`${key}: ${reason}`);
    this.name = 'RefusedListing';
  }
}
