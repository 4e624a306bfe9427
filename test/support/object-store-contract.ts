import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ObjectStore } from '../../shared/ports/object-store.js';

/**
 * What every ObjectStore adapter must do. An adapter run against an emulator
 * that lacks a behaviour names it in `unverified` with the reason; the check
 * is then reported as skipped under a title that says why, and the test file
 * asserts what the emulator really does instead.
 */
export interface ObjectStoreContractOptions {
  readonly unverified?: {
    /** If-None-Match: the first writer wins and every later one gets `written: false`. */
    readonly conditionalWrites?: string;
    /** Listing in byte order when keys differ in case and punctuation. */
    readonly byteOrderListing?: string;
  };
}

export const text = (bytes: Uint8Array | undefined): string | undefined =>
  bytes === undefined ? undefined : new TextDecoder().decode(bytes);

export async function listAll(store: ObjectStore, prefix: string): Promise<string[]> {
  const keys: string[] = [];
  for await (const key of store.list(prefix)) keys.push(key);
  return keys;
}

/** A check that `unverified` turns into a skip whose title says why, rather than dropping it silently. */
function check(title: string, unverifiedBecause: string | undefined, body: () => Promise<void>): void {
  if (unverifiedBecause === undefined) it(title, body);
  else it.skip(`${title} — not verified here: ${unverifiedBecause}`, body);
}

export function describeObjectStoreContract(
  name: string,
  createStore: () => Promise<ObjectStore>,
  options: ObjectStoreContractOptions = {},
): void {
  const unverified = options.unverified ?? {};

  describe(`${name} (ObjectStore contract)`, () => {
    it('reads back what was written, and nothing for an absent key', async () => {
      const store = await createStore();

      await store.put('runs/r1/manifest.json', '{"cases": 3}');

      expect(text(await store.get('runs/r1/manifest.json'))).toBe('{"cases": 3}');
      expect(await store.get('runs/r1/other.json')).toBeUndefined();
    });

    it('deletes an object, and deleting an absent one is no error', async () => {
      const store = await createStore();
      await store.put('runs/r1/failures/q1.json', '{}');
      await store.put('runs/r1/failures/q2.json', '{}');

      await store.delete('runs/r1/failures/q1.json');
      await store.delete('runs/r1/failures/never.json');

      expect(await store.get('runs/r1/failures/q1.json')).toBeUndefined();
      const keys: string[] = [];
      for await (const key of store.list('runs/r1/failures/')) keys.push(key);
      expect(keys).toEqual(['runs/r1/failures/q2.json']);
    });

    it('keeps bytes exactly, including ones that are not UTF-8', async () => {
      const store = await createStore();
      const bytes = Uint8Array.from([0, 255, 128, 10, 13, 0xc3]);

      await store.put('cache/binary.bin', bytes);

      expect([...((await store.get('cache/binary.bin')) ?? [])]).toEqual([...bytes]);
    });

    it('overwrites by default', async () => {
      const store = await createStore();

      const results = [await store.put('a/b.json', 'one'), await store.put('a/b.json', 'two')];

      expect(results).toEqual([{ written: true }, { written: true }]);
      expect(text(await store.get('a/b.json'))).toBe('two');
    });

    check('lets only the first writer win with ifNoneMatch, also when writers race', unverified.conditionalWrites, async () => {
      const store = await createStore();
      await store.put('a/b.json', 'first');

      const late = await store.put('a/b.json', 'late', { ifNoneMatch: true });
      const racers = await Promise.all([1, 2, 3, 4].map((index) => store.put('race/x.json', `writer ${index}`, { ifNoneMatch: true })));

      expect(late).toEqual({ written: false });
      expect(text(await store.get('a/b.json'))).toBe('first');
      expect(racers.filter((result) => result.written)).toHaveLength(1);
      const winner = racers.findIndex((result) => result.written) + 1;
      expect(text(await store.get('race/x.json'))).toBe(`writer ${winner}`);
    });

    it('writes with ifNoneMatch when the key is free', async () => {
      const store = await createStore();

      expect(await store.put('runs/r9/manifest.json', 'm', { ifNoneMatch: true })).toEqual({ written: true });
      expect(text(await store.get('runs/r9/manifest.json'))).toBe('m');
    });

    it('lists keys under a prefix, and nothing under an unused one', async () => {
      const store = await createStore();
      for (const key of ['runs/r2/results/b.json', 'runs/r1/results/a.json', 'runs/r2/results/a.json', 'cache/x.json'])
        await store.put(key, '{}');

      expect(await listAll(store, 'runs/r2/')).toEqual(['runs/r2/results/a.json', 'runs/r2/results/b.json']);
      expect(await listAll(store, 'runs/r3/')).toEqual([]);
    });

    check('lists in byte order: upper case before "_" before lower case', unverified.byteOrderListing, async () => {
      const store = await createStore();
      const keys = ['k/a.json', 'k/B.json', 'k/_.json', 'k/-.json', 'k/Z.json', 'k/c.json'];
      for (const key of keys) await store.put(key, '{}');

      // Byte values: "-" 0x2d, "B" 0x42, "Z" 0x5a, "_" 0x5f, "a" 0x61, "c" 0x63.
      expect(await listAll(store, 'k/')).toEqual(['k/-.json', 'k/B.json', 'k/Z.json', 'k/_.json', 'k/a.json', 'k/c.json']);
    });

    it('downloads an object to a local file, and reports an absent one', async () => {
      const store = await createStore();
      const folder = await mkdtemp(join(tmpdir(), 'assay-download-'));
      // Larger than one stream chunk, so a streaming download is exercised.
      const dataset = Uint8Array.from({ length: 300_000 }, (_, index) => index % 251);
      await store.put('datasets/suite/big.jsonl', dataset);

      try {
        expect(await store.download('datasets/suite/big.jsonl', join(folder, 'big.jsonl'))).toBe(true);
        expect(await store.download('datasets/suite/absent.jsonl', join(folder, 'absent.jsonl'))).toBe(false);

        expect(Buffer.compare(await readFile(join(folder, 'big.jsonl')), dataset)).toBe(0);
      } finally {
        await rm(folder, { recursive: true, force: true });
      }
    });

    it('uploads a local file and returns an ETag that changes with the content', async () => {
      const store = await createStore();
      const folder = await mkdtemp(join(tmpdir(), 'assay-upload-'));
      const rows = Array.from({ length: 5_000 }, (_, index) => `{"request_id": "q${index}", "request": "query ${index}"}`).join('\n');

      try {
        await writeFile(join(folder, 'rows.jsonl'), rows);
        await writeFile(join(folder, 'other.jsonl'), `${rows}\n`);
        const first = await store.upload('datasets/suite/rows.jsonl', join(folder, 'rows.jsonl'));
        const again = await store.upload('datasets/suite/copy.jsonl', join(folder, 'rows.jsonl'));
        const other = await store.upload('datasets/suite/other.jsonl', join(folder, 'other.jsonl'));

        expect(text(await store.get('datasets/suite/rows.jsonl'))).toBe(rows);
        expect(first.etag).toMatch(/^[^"]+$/);
        expect(again.etag).toBe(first.etag);
        expect(other.etag).not.toBe(first.etag);
      } finally {
        await rm(folder, { recursive: true, force: true });
      }
    });

    it('uploads a local file whose ETag nobody asks for, and stores the same bytes', async () => {
      const store = await createStore();
      const folder = await mkdtemp(join(tmpdir(), 'assay-upload-'));

      try {
        await writeFile(join(folder, 'cases.jsonl'), '{"case_id":"c1"}\n');
        await store.upload('reports/suite/r1/cases.jsonl', join(folder, 'cases.jsonl'), { etag: false });

        expect(text(await store.get('reports/suite/r1/cases.jsonl'))).toBe('{"case_id":"c1"}\n');
      } finally {
        await rm(folder, { recursive: true, force: true });
      }
    });

    it.each(['', '/abs.json', '../escape.json', 'a/../../b', 'a//b', 'dir/', 'a/./b'])('rejects the key %j', async (key) => {
      const store = await createStore();

      await expect(store.put(key, 'x')).rejects.toThrow(/Invalid object key/);
      await expect(store.get(key)).rejects.toThrow(/Invalid object key/);
    });
  });
}
