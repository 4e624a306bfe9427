import { readFile, writeFile } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LocalCopies } from '../../../shared/view/local-copies.js';
import type { StoredObject, ViewStore } from '../../../shared/view/stored-object.js';
import { createTempFolder, type TempFolder } from '../../support/temp-folder.js';

/** A store whose objects are text with a version the test sets (an ETag, say), counting the copies made. */
class VersionedTexts implements ViewStore {
  readonly objects = new Map<string, { text: string; version: string } | 'refused'>();
  copies = 0;

  async *list(): AsyncIterable<string> {}

  async read(): Promise<StoredObject<Uint8Array>> {
    throw new Error('not read whole');
  }

  async version(key: string): Promise<StoredObject<undefined>> {
    const object = this.objects.get(key);
    if (object === undefined) return { state: 'absent' };
    if (object === 'refused') return { state: 'refused', reason: `${key} is a named pipe (FIFO), not a regular file` };
    return { state: 'found', value: undefined, version: object.version };
  }

  async copy(key: string, path: string): Promise<StoredObject<undefined>> {
    const object = this.objects.get(key);
    if (object === undefined || object === 'refused') return this.version(key);
    this.copies++;
    await writeFile(path, object.text);
    return { state: 'found', value: undefined, version: object.version };
  }
}

let folder: TempFolder;
let store: VersionedTexts;
let copies: LocalCopies;

beforeEach(async () => {
  folder = await createTempFolder();
  store = new VersionedTexts();
  copies = new LocalCopies(store, folder.path);
});

afterEach(async () => {
  await folder.remove();
});

async function textOf(key: string): Promise<string> {
  const copy = await copies.path(key);
  if (copy.state !== 'found') throw new Error(`no copy: ${JSON.stringify(copy)}`);
  return readFile(copy.value, 'utf8');
}

describe('local copies of store objects', () => {
  it('copies once while the object keeps its version, and again once it has another', async () => {
    store.objects.set('cases.jsonl', { text: 'old', version: 'etag-1' });

    const first = await Promise.all([textOf('cases.jsonl'), textOf('cases.jsonl')]);
    const again = await textOf('cases.jsonl');
    store.objects.set('cases.jsonl', { text: 'new', version: 'etag-2' });
    const changed = await textOf('cases.jsonl');

    expect([...first, again, changed]).toEqual(['old', 'old', 'old', 'new']);
    expect(store.copies).toBe(2);
  });

  it('says an object that is gone or refused is so, rather than answer from an old copy', async () => {
    store.objects.set('cases.jsonl', { text: 'old', version: 'etag-1' });
    await textOf('cases.jsonl');

    store.objects.set('cases.jsonl', 'refused');
    const refused = await copies.path('cases.jsonl');
    store.objects.delete('cases.jsonl');
    const gone = await copies.path('cases.jsonl');
    store.objects.set('cases.jsonl', { text: 'repaired', version: 'etag-3' });

    expect(refused).toEqual({ state: 'refused', reason: 'cases.jsonl is a named pipe (FIFO), not a regular file' });
    expect(gone).toEqual({ state: 'absent' });
    expect(await textOf('cases.jsonl')).toBe('repaired');
  });

  it('keeps four copies, the most recently used', async () => {
    for (const name of ['a', 'b', 'c', 'd', 'e']) store.objects.set(name, { text: name, version: '1' });
    for (const name of ['a', 'b', 'c', 'd']) await textOf(name);
    await textOf('a');

    await textOf('e');
    const copiesBefore = store.copies;
    await Promise.all(['a', 'c', 'd', 'e'].map(textOf));
    await textOf('b');

    expect(copiesBefore).toBe(5);
    expect(store.copies).toBe(6);
  });
});
