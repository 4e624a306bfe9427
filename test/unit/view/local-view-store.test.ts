import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:net';
import { mkdir, readFile, rename, symlink, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalViewStore } from '../../../shared/view/local-view-store.js';
import { RefusedListing } from '../../../shared/view/stored-object.js';
import { createTempFolder, type TempFolder } from '../../support/temp-folder.js';

/**
 * A local store folder read as `assay view` reads it: regular files inside
 * the folder only. The store holds real symbolic links (to a file outside,
 * to a folder outside, inside the store), a named pipe, a socket and a
 * folder where files should be.
 */
const SECRET = 'root:x:0:0:the-secret-outside-the-store';
let folder: TempFolder;
let root: string;
let store: LocalViewStore;
let socket: Server;

beforeAll(async () => {
  folder = await createTempFolder();
  root = join(folder.path, 'store');
  const outside = join(folder.path, 'outside');
  await mkdir(join(outside, 'reports'), { recursive: true });
  await writeFile(join(outside, 'passwd'), SECRET);
  await writeFile(join(outside, 'reports', 'card.json'), SECRET);
  await mkdir(join(root, 'reports', 'nightly', 'r-1'), { recursive: true });
  await mkdir(join(root, 'reports', '@suites'), { recursive: true });
  await writeFile(join(root, 'reports', 'nightly', 'history.json'), '{"suite":"nightly"}');
  await writeFile(join(root, 'reports', '@suites', 'nightly.json'), '{}');
  await symlink(join(outside, 'passwd'), join(root, 'reports', 'nightly', 'linked.json'));
  await symlink('history.json', join(root, 'reports', 'nightly', 'inside-link.json'));
  await symlink(join(outside, 'reports'), join(root, 'reports', 'linked-suite'));
  await promisify(execFile)('mkfifo', [join(root, 'reports', 'nightly', 'fifo.json')]);
  await mkdir(join(root, 'reports', 'nightly', 'r-1', 'cases.jsonl'));
  socket = createServer();
  await new Promise<void>((resolve) => socket.listen(join(root, 'reports', 'nightly', 'socket.json'), resolve));
  store = new LocalViewStore(root);
});

afterAll(async () => {
  await new Promise((resolve) => socket?.close(resolve));
  await folder?.remove();
});

describe('a local store as the view reads it', () => {
  it('reads a regular file, with its version', async () => {
    const read = await store.read('reports/nightly/history.json');

    expect(read).toMatchObject({ state: 'found', version: expect.any(String) });
    expect(read.state === 'found' ? new TextDecoder().decode(read.value) : '').toBe('{"suite":"nightly"}');
    expect(await store.version('reports/nightly/history.json')).toEqual({
      state: 'found',
      value: undefined,
      version: read.state === 'found' ? read.version : '',
    });
  });

  it.each([
    [
      'a link to a file outside the store',
      'reports/nightly/linked.json',
      'reports/nightly/linked.json is a symbolic link; assay view reads only regular files inside the store and follows no link',
    ],
    ['a link to a file inside the store', 'reports/nightly/inside-link.json', 'reports/nightly/inside-link.json is a symbolic link'],
    ['a file under a linked folder', 'reports/linked-suite/card.json', 'reports/linked-suite is a symbolic link'],
    [
      'a named pipe, which would block the read',
      'reports/nightly/fifo.json',
      'reports/nightly/fifo.json is a named pipe (FIFO), not a regular file',
    ],
    ['a socket', 'reports/nightly/socket.json', 'reports/nightly/socket.json is a socket, not a regular file'],
    [
      'a folder where a file should be',
      'reports/nightly/r-1/cases.jsonl',
      'reports/nightly/r-1/cases.jsonl is a folder, not a regular file',
    ],
    [
      'a file where a folder should be',
      'reports/nightly/history.json/x',
      'reports/nightly/history.json is a regular file where a folder should be',
    ],
  ])('refuses %s, naming it, without following or opening it', async (_described, key, reason) => {
    const started = Date.now();
    const read = await store.read(key);
    const version = await store.version(key);
    const copied = await store.copy(key, join(folder.path, 'copy'));

    for (const answer of [read, version, copied]) {
      expect(answer.state).toBe('refused');
      expect(answer.state === 'refused' ? answer.reason : '').toContain(reason);
    }
    expect(JSON.stringify(read)).not.toContain('the-secret');
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('says a missing object is absent', async () => {
    expect(await store.read('reports/nightly/none.json')).toEqual({ state: 'absent' });
    expect(await store.version('reports/none/history.json')).toEqual({ state: 'absent' });
  });

  it('lists keys without descending into a linked folder, and refuses to list under one', async () => {
    const keys: string[] = [];
    for await (const key of store.list('reports/')) keys.push(key);

    expect(keys).toContain('reports/nightly/history.json');
    expect(keys.some((key) => key.includes('card.json'))).toBe(false);
    await expect(async () => {
      for await (const _key of store.list('reports/linked-suite/')) break;
    }).rejects.toThrow(RefusedListing);
  });

  it('gives another version when the file is written again, in place or by a rename, at the same size and time', async () => {
    // Prepare
    const path = join(root, 'reports', 'nightly', 'versioned.json');
    await writeFile(path, 'aaaa');
    await utimes(path, 1_700_000_000, 1_700_000_000);
    const first = await store.version('reports/nightly/versioned.json');

    // Act: same size and modification time, written in place, then replaced by a rename
    await writeFile(path, 'bbbb');
    await utimes(path, 1_700_000_000, 1_700_000_000);
    const inPlace = await store.version('reports/nightly/versioned.json');
    await writeFile(`${path}.new`, 'cccc');
    await utimes(`${path}.new`, 1_700_000_000, 1_700_000_000);
    await rename(`${path}.new`, path);
    const renamed = await store.version('reports/nightly/versioned.json');

    // Assess
    const versions = [first, inPlace, renamed].map((answer) => (answer.state === 'found' ? answer.version : 'none'));
    expect(new Set(versions).size).toBe(3);
  });

  it('copies a regular file and gives the version of what it copied', async () => {
    const target = join(folder.path, 'copied');

    const copied = await store.copy('reports/nightly/history.json', target);

    expect(copied).toEqual(await store.version('reports/nightly/history.json'));
    expect(await readFile(target, 'utf8')).toBe('{"suite":"nightly"}');
  });
});
