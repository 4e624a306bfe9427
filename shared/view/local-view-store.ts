import { constants, createWriteStream, type BigIntStats } from 'node:fs';
import { lstat, open, readlink, realpath, rm, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { LocalFolderStore } from '../ports/local-folder-store.js';
import { assertValidKey } from '../ports/object-store.js';
import { RefusedListing, type StoredObject, type ViewStore } from './stored-object.js';

/** A file opened without following a link, and not waiting for a writer (a named pipe would block the read until one came). */
const OPEN_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

const NOT_FOLLOWED = 'assay view reads only regular files inside the store and follows no link';

/**
 * A local store folder as `assay view` reads it: only regular files inside
 * the folder. Every folder on a key's path and the file itself are looked at
 * without following links (lstat) before anything is opened: a symbolic link
 * (to /etc/passwd, or a folder outside), a named pipe (whose read would wait
 * for a writer forever), a socket or a device is refused with the reason,
 * naming it, never followed or opened. The file is then opened with
 * O_NOFOLLOW and O_NONBLOCK, checked to be a regular file again, and, where
 * the system tells (/proc/self/fd), checked to be the file at that path
 * inside the store, so a link swapped in meanwhile is not followed either.
 *
 * A version is the file's device, inode, size and modification and change
 * times (ns): any write, in place or by a rename (as the reducer writes),
 * changes it.
 */
export class LocalViewStore implements ViewStore {
  private readonly folder: LocalFolderStore;
  private realRoot: Promise<string> | undefined;

  constructor(private readonly root: string) {
    this.folder = new LocalFolderStore(root);
  }

  async *list(prefix: string): AsyncIterable<string> {
    const slash = prefix.lastIndexOf('/');
    const folders = slash === -1 ? [] : prefix.slice(0, slash).split('/');
    if (folders.some((part) => part === '' || part === '.' || part === '..')) return;
    const walked = await this.walk(folders, 'folder');
    if (walked.state === 'refused') throw new RefusedListing(folders.join('/'), walked.reason);
    if (walked.state === 'absent') return;
    // The folder store's listing descends into folders only, never into a link (a link is listed as a key, and refused when read).
    yield* this.folder.list(prefix);
  }

  async read(key: string): Promise<StoredObject<Uint8Array>> {
    const opened = await this.open(key);
    if (opened.state !== 'found') return opened;
    try {
      return { state: 'found', value: await opened.value.readFile(), version: opened.version };
    } finally {
      await opened.value.close();
    }
  }

  async version(key: string): Promise<StoredObject<undefined>> {
    const walked = await this.walk(key.split('/'), 'file');
    return walked.state === 'found' ? { state: 'found', value: undefined, version: versionOf(walked.value) } : walked;
  }

  async copy(key: string, path: string): Promise<StoredObject<undefined>> {
    const opened = await this.open(key);
    if (opened.state !== 'found') return opened;
    try {
      await pipeline(opened.value.createReadStream({ autoClose: false }), createWriteStream(path));
    } catch (error) {
      await rm(path, { force: true });
      throw error;
    } finally {
      await opened.value.close();
    }
    return { state: 'found', value: undefined, version: opened.version };
  }

  /** The key's file, open for reading, with its version; or why not. */
  private async open(key: string): Promise<StoredObject<FileHandle>> {
    assertValidKey(key);
    const parts = key.split('/');
    const walked = await this.walk(parts, 'file');
    if (walked.state !== 'found') return walked;
    const path = join(this.root, ...parts);
    let handle: FileHandle;
    try {
      handle = await open(path, OPEN_FLAGS);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') return { state: 'absent' };
      if (code === 'ELOOP') return refused(`${key} is a symbolic link; ${NOT_FOLLOWED}`);
      if (code === 'ENXIO') return refused(`${key} is a socket, not a regular file`);
      if (code === 'EACCES' || code === 'EPERM') return refused(`${key} cannot be read: permission denied`);
      throw error;
    }
    try {
      const stats = await handle.stat({ bigint: true });
      if (!stats.isFile()) return closed(handle, refused(`${key} is ${kindOf(stats)}, not a regular file`));
      const where = await this.openedPath(handle);
      if (where !== undefined) {
        const expected = join(await this.resolvedRoot(), ...parts);
        if (where !== expected && where !== `${expected} (deleted)`)
          return closed(
            handle,
            refused(`${key} is not the file at that path inside the store (it was replaced by a link while being opened); ${NOT_FOLLOWED}`),
          );
      } else if (stats.dev !== walked.value.dev || stats.ino !== walked.value.ino) {
        return closed(handle, refused(`${key} changed while being opened; ask again`));
      }
      return { state: 'found', value: handle, version: versionOf(stats) };
    } catch (error) {
      await handle.close();
      throw error;
    }
  }

  /**
   * Each part of the path under the root, looked at without following
   * links: every one before the last must be a folder, the last a regular
   * file (`file`) or a folder (`folder`). The last one's status, or why not.
   */
  private async walk(parts: readonly string[], last: 'file' | 'folder'): Promise<StoredObject<BigIntStats>> {
    let path = this.root;
    let stats: BigIntStats | undefined;
    for (const [index, part] of parts.entries()) {
      path = join(path, part);
      const shown = parts.slice(0, index + 1).join('/');
      try {
        stats = await lstat(path, { bigint: true });
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'ENOENT' || code === 'ENOTDIR') return { state: 'absent' };
        if (code === 'EACCES' || code === 'EPERM') return refused(`${shown} cannot be read: permission denied`);
        throw error;
      }
      if (stats.isSymbolicLink()) return refused(`${shown} is a symbolic link; ${NOT_FOLLOWED}`);
      const isLast = index === parts.length - 1;
      if ((!isLast || last === 'folder') && !stats.isDirectory()) return refused(`${shown} is ${kindOf(stats)} where a folder should be`);
      if (isLast && last === 'file' && !stats.isFile()) return refused(`${shown} is ${kindOf(stats)}, not a regular file`);
    }
    if (stats === undefined) {
      // No part: the root itself, which the user named (it may be a link).
      return { state: 'found', value: await lstat(this.root, { bigint: true }), version: '' };
    }
    return { state: 'found', value: stats, version: '' };
  }

  /** Where an open file is, as the system resolved it (Linux's /proc/self/fd); undefined where the system does not tell. */
  private async openedPath(handle: FileHandle): Promise<string | undefined> {
    try {
      return await readlink(`/proc/self/fd/${handle.fd}`);
    } catch {
      return undefined;
    }
  }

  private resolvedRoot(): Promise<string> {
    this.realRoot ??= realpath(this.root);
    return this.realRoot;
  }
}

function refused(reason: string): StoredObject<never> {
  return { state: 'refused', reason };
}

async function closed<Value>(handle: FileHandle, value: Value): Promise<Value> {
  await handle.close();
  return value;
}

/** Changes with every write of the file: in place (size, modification and change times) or by a rename over it (device and inode). */
function versionOf(stats: BigIntStats): string {
  return [stats.dev, stats.ino, stats.size, stats.mtimeNs, stats.ctimeNs].join(':');
}

function kindOf(stats: BigIntStats): string {
  if (stats.isDirectory()) return 'a folder';
  if (stats.isFIFO()) return 'a named pipe (FIFO)';
  if (stats.isSocket()) return 'a socket';
  if (stats.isCharacterDevice()) return 'a character device';
  if (stats.isBlockDevice()) return 'a block device';
  if (stats.isSymbolicLink()) return 'a symbolic link';
  return 'a regular file';
}
