import { createHash, randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { copyFile, link, mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import { assertValidKey, type ObjectStore } from './object-store.js';

/**
 * An ObjectStore in a local folder (the embedded default, `.assay/`). Writes
 * go to a temporary file first and then into place, so a reader never sees a
 * half-written object; `ifNoneMatch` uses a hard link, which fails when the
 * target exists, so of two writers exactly one wins, as with S3.
 */
export class LocalFolderStore implements ObjectStore {
  constructor(private readonly root: string) {}

  async get(key: string): Promise<Uint8Array | undefined> {
    try {
      return await readFile(this.pathOf(key));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  }

  async put(key: string, body: Uint8Array | string, options: { ifNoneMatch?: boolean } = {}): Promise<{ written: boolean }> {
    const path = this.pathOf(key);
    await mkdir(dirname(path), { recursive: true });
    const temporary = `${path}.${randomUUID()}.tmp`;
    await writeFile(temporary, body);
    try {
      if (!options.ifNoneMatch) {
        await rename(temporary, path);
        return { written: true };
      }
      try {
        await link(temporary, path);
        return { written: true };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'EEXIST') return { written: false };
        throw error;
      }
    } finally {
      await rm(temporary, { force: true });
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

  async upload(key: string, path: string): Promise<{ etag: string }> {
    const target = this.pathOf(key);
    await mkdir(dirname(target), { recursive: true });
    const temporary = `${target}.${randomUUID()}.tmp`;
    await copyFile(path, temporary);
    await rename(temporary, target);
    // The local stand-in for an ETag: the MD5 of the content, as S3 gives for a single-part upload.
    const hash = createHash('md5');
    for await (const chunk of createReadStream(target)) hash.update(chunk as Buffer);
    return { etag: hash.digest('hex') };
  }

  async *list(prefix: string): AsyncIterable<string> {
    const keys: string[] = [];
    await this.collect(this.root, keys);
    yield* keys.filter((key) => key.startsWith(prefix) && !key.endsWith('.tmp')).sort();
  }

  private async collect(folder: string, keys: string[]): Promise<void> {
    let entries;
    try {
      entries = await readdir(folder, { withFileTypes: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw error;
    }
    for (const entry of entries) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) await this.collect(path, keys);
      else keys.push(relative(this.root, path).split(sep).join('/'));
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
