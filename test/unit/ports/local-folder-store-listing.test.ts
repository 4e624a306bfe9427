import * as fs from 'node:fs/promises';
import { relative, sep } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LocalFolderStore } from '../../../shared/ports/local-folder-store.js';
import { listAll } from '../../support/object-store-contract.js';
import { createTempFolder, type TempFolder } from '../../support/temp-folder.js';

// Counts the folders the store reads, to show what a listing walks.
vi.mock('node:fs/promises', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:fs/promises')>();
  return { ...actual, readdir: vi.fn(actual.readdir) };
});

let folder: TempFolder;
let store: LocalFolderStore;
beforeEach(async () => {
  folder = await createTempFolder();
  store = new LocalFolderStore(folder.path);
  // A big unrelated tree beside the run being listed: other runs and a judge cache.
  for (let index = 0; index < 30; index++) {
    await store.put(`runs/other-${index}/results/c1.json`, '{}');
    await store.put(`cache/judges/${index.toString(16).padStart(2, '0')}/key.json`, '{}');
  }
  await store.put('runs/a/results/c1.json', '{}');
  await store.put('runs/a/results/c2.json', '{}');
  await store.put('runs/a/failures/c3.json', '{}');
  await store.put('runs/ab/manifest.json', '{}');
  vi.mocked(fs.readdir).mockClear();
});
afterEach(async () => {
  await folder.remove();
});

/** The folders read since the last mockClear, relative to the store's root. */
function foldersRead(): string[] {
  return vi
    .mocked(fs.readdir)
    .mock.calls.map(([path]) => relative(folder.path, String(path)).split(sep).join('/'))
    .sort();
}

describe('LocalFolderStore.list', () => {
  it.each([
    [
      'runs/a/',
      ['runs/a/failures/c3.json', 'runs/a/results/c1.json', 'runs/a/results/c2.json'],
      ['runs/a', 'runs/a/failures', 'runs/a/results'],
    ],
    ['runs/a/results/', ['runs/a/results/c1.json', 'runs/a/results/c2.json'], ['runs/a/results']],
    ['runs/a/res', ['runs/a/results/c1.json', 'runs/a/results/c2.json'], ['runs/a', 'runs/a/results']],
    [
      'runs/a',
      ['runs/a/failures/c3.json', 'runs/a/results/c1.json', 'runs/a/results/c2.json', 'runs/ab/manifest.json'],
      ['runs', 'runs/a', 'runs/a/failures', 'runs/a/results', 'runs/ab'],
    ],
    ['runs/missing/', [], ['runs/missing']],
    ['runs/a/results/c1.json/', [], ['runs/a/results/c1.json']],
  ])('lists %s by reading only the folders it names', async (prefix, keys, folders) => {
    // Act
    const listed = await listAll(store, prefix);

    // Assess
    expect(listed).toEqual(keys);
    expect(foldersRead()).toEqual(folders);
  });

  it('still lists the whole store for an empty prefix, in byte order', async () => {
    const listed = await listAll(store, '');

    expect(listed).toHaveLength(64);
    expect(listed).toEqual([...listed].sort());
  });

  it.each(['runs//', '../', 'runs/../'])('lists nothing for a prefix no key can have (%s)', async (prefix) => {
    expect(await listAll(store, prefix)).toEqual([]);
    expect(foldersRead()).toEqual([]);
  });
});
