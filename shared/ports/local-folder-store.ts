import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, type Dirent } from 'node:fs';
import { copyFile, link, mkdir, readdir, readFile, rename, rm, unlink, writeFile } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import { unwritableOr } from './full-disk.js';
import { assertValidKey, type ObjectStore } from './object-store.js';

/** Folders remembered at most: a few runs' shard folders; past it the memory starts again. */
const MOST_FOLDERS_KEPT = 4096;

/**
 * An ObjectStore in a local folder (the embedded default, `.assay/`). Writes
 * go to a temporary file first and then into place, so a reader never sees a
 * half-written object; `ifNoneMatch` uses a hard link, which fails when the
 * target exists, so of two writers exactly one wins, as with S3. A write
 * that fails removes its temporary file: a disk that filled up mid-write
 * would otherwise keep the partial file, holding the space the next write
 * needs; a full disk (or quota, or read-only file system) is thrown as a
 * StoreUnwritableError that names the store and the key (full-disk.ts).
 */
export class LocalFolderStore implements ObjectStore {
  /** Folders this store has made or found, so that most writes need no mkdir. */
  private readonly folders = new Set<string>();

  constructor(
    /** The folder the keys are paths under. */
    readonly root: string,
  ) {}

  async get(key: string): Promise<Uint8Array | undefined> {
    try {
      return await readFile(this.pathOf(key));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  }

  async put(key: string, body: Uint8Array | string, options: { ifNoneMatch?: boolean } = {}): Promise<{ written: boolean }> {
    return this.explainingFailures(key, () => this.write(key, body, options));
  }

  private async write(key: string, body: Uint8Array | string, options: { ifNoneMatch?: boolean }): Promise<{ written: boolean }> {
    const path = this.pathOf(key);
    const temporary = temporaryBeside(path);
    await withoutLeftover(temporary, () => this.writeInFolder(temporary, body));
    if (!options.ifNoneMatch) {
      await withoutLeftover(temporary, () => rename(temporary, path));
      return { written: true };
    }
    try {
      await link(temporary, path);
      return { written: true };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') return { written: false };
      throw error;
    } finally {
      // unlink, not rm: the temporary file is known to be a file, and rm would stat it first.
      await unlink(temporary).catch(ignoreMissing);
    }
  }

  /**
   * Writes a file, creating its folder the first time this store writes
   * there: a run writes thousands of results into a few hundred shard
   * folders, and a recursive mkdir before each write cost about a quarter of
   * an embedded judge worker's time. A folder removed since (a run's
   * partials, a test's cleanup) is made again when the write finds it gone.
   */
  private async writeInFolder(path: string, body: Uint8Array | string): Promise<void> {
    const folder = dirname(path);
    if (!this.folders.has(folder)) {
      await mkdir(folder, { recursive: true });
      if (this.folders.size >= MOST_FOLDERS_KEPT) this.folders.clear();
      this.folders.add(folder);
    }
    try {
      await writeFile(path, body);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      await mkdir(folder, { recursive: true });
      await writeFile(path, body);
    }
  }

  async download(key: string, path: string): Promise<boolean> {
    try {
      await copyFile(this.pathOf(key), path);
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw error;
    }
  }

  upload(key: string, path: string): Promise<{ etag: string }>;
  upload(key: string, path: string, options: { readonly etag: false }): Promise<unknown>;
  async upload(key: string, path: string, options?: { readonly etag?: false }): Promise<{ etag: string } | undefined> {
    const target = this.pathOf(key);
    await this.explainingFailures(key, async () => {
      await mkdir(dirname(target), { recursive: true });
      const temporary = temporaryBeside(target);
      await withoutLeftover(temporary, async () => {
        await copyFile(path, temporary);
        await rename(temporary, target);
      });
    });
    if (options?.etag === false) return undefined;
    // The local stand-in for an ETag: the MD5 of the content, as S3 gives for a single-part upload.
    const hash = createHash('md5');
    for await (const chunk of createReadStream(target)) hash.update(chunk as Buffer);
    return { etag: hash.digest('hex') };
  }

  /**
   * Walks only the folder the prefix names: `runs/r1/res` reads `runs/r1`
   * and, of its entries, those whose names start with `res`, so listing a
   * run's results costs that run's files and not the whole store's.
   */
  async *list(prefix: string): AsyncIterable<string> {
    const slash = prefix.lastIndexOf('/');
    const folderParts = slash === -1 ? [] : prefix.slice(0, slash).split('/');
    // No key has an empty, "." or ".." segment, so such a prefix matches nothing (and must not leave the root).
    if (folderParts.some((part) => part === '' || part === '.' || part === '..')) return;
    const keys: string[] = [];
    await this.collect(join(this.root, ...folderParts), prefix.slice(slash + 1), keys);
    yield* keys.filter((key) => key.startsWith(prefix) && !key.endsWith('.tmp')).sort();
  }

  /** Adds the keys of the files under `folder` whose first segment there starts with `namePrefix`. */
  private async collect(folder: string, namePrefix: string, keys: string[]): Promise<void> {
    let entries: Dirent[];
    try {
      entries = await readdir(folder, { withFileTypes: true });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      // A prefix may name a folder that does not exist, or a file.
      if (code === 'ENOENT' || code === 'ENOTDIR') return;
      throw error;
    }
    for (const entry of entries) {
      if (!entry.name.startsWith(namePrefix)) continue;
      const path = join(folder, entry.name);
      if (entry.isDirectory()) await this.collect(path, '', keys);
      else keys.push(relative(this.root, path).split(sep).join('/'));
    }
  }

  /**
   * Runs a file operation for `key`; a name the file system refuses as too
   * long (ENAMETOOLONG, which names neither the key nor the limit) becomes an
   * error that names both, and a full disk one that names the store and the key.
   */
  private async explainingFailures<T>(key: string, operation: () => Promise<T>): Promise<T> {
    try {
      return await operation();
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENAMETOOLONG') throw unwritableOr(this.root, key, error);
      const longest = key.split('/').reduce((found, name) => (Buffer.byteLength(name) > Buffer.byteLength(found) ? name : found));
      const bytes = Buffer.byteLength(longest);
      const why =
        bytes > 255
          ? `the name "${longest}" is ${bytes} bytes, longer than its file system allows (255 bytes on most)`
          : 'its path is longer than the file system allows';
      throw new Error(`The store ${this.root} cannot hold "${key}": ${why}; shorten it`, { cause: error });
    }
  }

  private pathOf(key: string): string {
    assertValidKey(key);
    return join(this.root, ...key.split('/'));
  }

  async delete(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }
}

function ignoreMissing(error: NodeJS.ErrnoException): void {
  if (error.code !== 'ENOENT') throw error;
}

/** Runs a write into `temporary`; when it fails, the temporary file goes too (whatever of it was written), and the write's error is thrown. */
async function withoutLeftover(temporary: string, write: () => Promise<void>): Promise<void> {
  try {
    await write();
  } catch (error) {
    // unlink, not rm: the temporary file is known to be a file (or not there), and rm would stat it first.
    await unlink(temporary).catch(() => undefined);
    throw error;
  }
}

/**
 * A temporary file in the folder of `path`, under a name of fixed length
 * (41 bytes) rather than `path` plus a suffix: a name the file system just
 * holds must not become one it refuses while it is being written.
 */
function temporaryBeside(path: string): string {
  return join(dirname(path), `.${randomUUID()}.tmp`);
}
