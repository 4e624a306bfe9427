import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LocalFolderStore } from '../../../shared/ports/local-folder-store.js';
import { listAll } from '../../support/object-store-contract.js';
import { createTempFolder, type TempFolder } from '../../support/temp-folder.js';

let folder: TempFolder;
let store: LocalFolderStore;
beforeEach(async () => {
  folder = await createTempFolder();
  store = new LocalFolderStore(join(folder.path, 'store'));
});
afterEach(async () => {
  await folder.remove();
});

/** A file name of `bytes` bytes: the file system's limit on one name is 255 on most. */
const nameOf = (bytes: number): string => `${'d'.repeat(bytes - 6)}.jsonl`;

describe('LocalFolderStore with long names', () => {
  it.each([220, 255])('stores and uploads a %i-byte name: its temporary file does not lengthen the name', async (bytes) => {
    // Prepare
    const source = await folder.write(nameOf(bytes), '{"request": "a"}\n');

    // Act
    await store.put(`datasets/s/${nameOf(bytes)}`, 'x');
    await store.upload(`datasets/u/${nameOf(bytes)}`, source);

    // Assess
    expect(await listAll(store, 'datasets/')).toEqual([`datasets/s/${nameOf(bytes)}`, `datasets/u/${nameOf(bytes)}`]);
    expect(await readdir(join(folder.path, 'store', 'datasets', 's'))).toEqual([nameOf(bytes)]);
  });

  it('refuses a name longer than the file system allows on one line naming the key', async () => {
    // Act
    const written = store.put(`datasets/s/${nameOf(300)}`, 'x');

    // Assess
    await expect(written).rejects.toThrow(
      /^The store .* cannot hold "datasets\/s\/d+\.jsonl": the name "d+\.jsonl" is 300 bytes, longer than its file system allows \(255 bytes on most\); shorten it$/,
    );
  });
});

describe('LocalFolderStore folders', () => {
  it('writes into a folder removed behind its back since its last write there', async () => {
    // Prepare: the store has written into runs/r1/partials, which something else then removes
    await store.put('runs/r1/partials/0.json', '{"a":1}');
    await rm(join(folder.path, 'store', 'runs', 'r1'), { recursive: true });

    // Act
    const plain = await store.put('runs/r1/partials/1.json', '{"b":2}');
    await rm(join(folder.path, 'store', 'runs', 'r1'), { recursive: true });
    const once = await store.put('runs/r1/partials/2.json', '{"c":3}', { ifNoneMatch: true });

    // Assess: both written, and no temporary file left beside them
    expect([plain, once]).toEqual([{ written: true }, { written: true }]);
    expect(new TextDecoder().decode(await store.get('runs/r1/partials/2.json'))).toBe('{"c":3}');
    expect(await readdir(join(folder.path, 'store', 'runs', 'r1', 'partials'))).toEqual(['2.json']);
  });

  it('leaves no temporary file when an object is written twice, or once only', async () => {
    // Act
    await store.put('runs/r1/manifest.json', 'first');
    await store.put('runs/r1/manifest.json', 'second');
    const again = await store.put('runs/r1/lease.json', 'a', { ifNoneMatch: true });
    const refused = await store.put('runs/r1/lease.json', 'b', { ifNoneMatch: true });

    // Assess
    expect([again, refused]).toEqual([{ written: true }, { written: false }]);
    expect((await readdir(join(folder.path, 'store', 'runs', 'r1'))).sort()).toEqual(['lease.json', 'manifest.json']);
    expect(new TextDecoder().decode(await store.get('runs/r1/manifest.json'))).toBe('second');
  });
});
