import { readdir } from 'node:fs/promises';
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
    await expect(written).rejects.toThrow(/^The store .* cannot hold "datasets\/s\/d+\.jsonl": the name "d+\.jsonl" is 300 bytes, longer than its file system allows \(255 bytes on most\); shorten it$/);
  });
});
