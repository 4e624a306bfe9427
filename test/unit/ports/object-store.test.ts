import { afterAll, describe, expect, it } from 'vitest';
import { LocalFolderStore } from '../../../shared/ports/local-folder-store.js';
import { MemoryStore } from '../../../shared/ports/memory-store.js';
import type { ObjectStore } from '../../../shared/ports/object-store.js';
import { createTempFolder, type TempFolder } from '../../support/temp-folder.js';

const folders: TempFolder[] = [];
afterAll(async () => {
  await Promise.all(folders.map((folder) => folder.remove()));
});

const stores: [string, () => Promise<ObjectStore>][] = [
  ['MemoryStore', async () => new MemoryStore()],
  [
    'LocalFolderStore',
    async () => {
      const folder = await createTempFolder();
      folders.push(folder);
      return new LocalFolderStore(folder.path);
    },
  ],
];

const text = (bytes: Uint8Array | undefined): string | undefined => (bytes === undefined ? undefined : new TextDecoder().decode(bytes));

describe.each(stores)('%s', (_name, createStore) => {
  it('reads back what was written, and nothing for an absent key', async () => {
    const store = await createStore();
    await store.put('runs/r1/manifest.json', '{"cases": 3}');
    expect(text(await store.get('runs/r1/manifest.json'))).toBe('{"cases": 3}');
    expect(await store.get('runs/r1/other.json')).toBeUndefined();
  });

  it('overwrites by default, and lets only the first writer win with ifNoneMatch', async () => {
    const store = await createStore();
    expect(await store.put('a/b.json', 'one')).toEqual({ written: true });
    expect(await store.put('a/b.json', 'two')).toEqual({ written: true });
    expect(await store.put('a/b.json', 'three', { ifNoneMatch: true })).toEqual({ written: false });
    expect(text(await store.get('a/b.json'))).toBe('two');
    const racers = await Promise.all([1, 2, 3, 4].map((index) => store.put('race/x.json', `writer ${index}`, { ifNoneMatch: true })));
    expect(racers.filter((result) => result.written)).toHaveLength(1);
  });

  it('lists keys under a prefix in byte order', async () => {
    const store = await createStore();
    for (const key of ['runs/r2/results/b.json', 'runs/r1/results/a.json', 'runs/r2/results/a.json', 'cache/x.json']) await store.put(key, '{}');
    const keys: string[] = [];
    for await (const key of store.list('runs/r2/')) keys.push(key);
    expect(keys).toEqual(['runs/r2/results/a.json', 'runs/r2/results/b.json']);
  });

  it.each(['', '/abs.json', '../escape.json', 'a/../../b', 'a//b', 'dir/'])('rejects the key %j', async (key) => {
    const store = await createStore();
    await expect(store.put(key, 'x')).rejects.toThrow(/Invalid object key/);
  });
});
