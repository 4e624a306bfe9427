import { CreateBucketCommand } from '@aws-sdk/client-s3';
import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { S3Store } from '../../shared/ports/s3-store.js';
import { useFauxqsClients } from '../support/fauxqs.js';
import { describeObjectStoreContract, listAll, text } from '../support/object-store-contract.js';

/**
 * S3Store against aws.fauxqs 1.9.2. Where aws.fauxqs differs from S3 the contract
 * check is skipped with the reason, and the tests below pin what aws.fauxqs
 * really does, so an upgrade that fixes it shows up as a failing test here.
 * The 412 mapping itself is tested in test/unit/ports/s3-store.test.ts.
 */

const aws = useFauxqsClients();
let buckets = 0;

/** A fresh bucket per test, so tests do not see each other's keys. */
async function createStore(options: { pageSize?: number } = {}): Promise<S3Store> {
  buckets += 1;
  const bucket = `assay-test-${buckets}`;
  await aws.clients.s3.send(new CreateBucketCommand({ Bucket: bucket }));
  return new S3Store(aws.clients.s3, bucket, options);
}

describeObjectStoreContract('S3Store on fauxqs', () => createStore(), {
  unverified: {
    conditionalWrites: 'fauxqs 1.9.2 ignores If-None-Match (see below)',
    byteOrderListing: 'fauxqs 1.9.2 lists in locale order (see below)',
  },
});

describe('S3Store on fauxqs: S3 specifics', () => {
  it('returns the bare MD5 of the content as the ETag of a single-part upload, as the local stores do', async () => {
    const store = await createStore();
    const folder = await mkdtemp(join(tmpdir(), 'assay-etag-'));
    const content = '{"request": "what is ndcg"}\n';

    try {
      await writeFile(join(folder, 'rows.jsonl'), content);
      const { etag } = await store.upload('datasets/suite/rows.jsonl', join(folder, 'rows.jsonl'));

      expect(etag).toBe(createHash('md5').update(content).digest('hex'));
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });

  it('tells an object’s version (its ETag) without reading it, the same as a read or a download gives, and another once it is written again', async () => {
    const store = await createStore();
    const folder = await mkdtemp(join(tmpdir(), 'assay-version-'));

    try {
      await store.put('reports/s/r/cases.jsonl', 'first\n');
      const version = await store.versionOf('reports/s/r/cases.jsonl');
      const read = await store.getVersioned('reports/s/r/cases.jsonl');
      const downloaded = await store.downloadVersioned('reports/s/r/cases.jsonl', join(folder, 'copy'));
      await store.put('reports/s/r/cases.jsonl', 'second\n');

      expect(version).toBe(createHash('md5').update('first\n').digest('hex'));
      expect(read).toEqual({ bytes: new TextEncoder().encode('first\n'), version });
      expect(downloaded).toBe(version);
      expect(await store.versionOf('reports/s/r/cases.jsonl')).not.toBe(version);
      expect(await store.versionOf('reports/s/r/none.jsonl')).toBeUndefined();
      expect(await store.getVersioned('reports/s/r/none.jsonl')).toBeUndefined();
      expect(await store.downloadVersioned('reports/s/r/none.jsonl', join(folder, 'none'))).toBeUndefined();
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });

  it('follows continuation tokens across pages', async () => {
    const store = await createStore({ pageSize: 2 });
    const keys = [
      'runs/r1/results/q1.json',
      'runs/r1/results/q2.json',
      'runs/r1/results/q3.json',
      'runs/r1/results/q4.json',
      'runs/r1/results/q5.json',
    ];
    for (const key of [...keys].reverse()) await store.put(key, '{}');

    expect(await listAll(store, 'runs/r1/')).toEqual(keys);
  });
});

describe('what aws.fauxqs 1.9.2 does differently from S3', () => {
  it('fauxqs 1.9.2 ignores If-None-Match: the second writer overwrites', async () => {
    const store = await createStore();

    const first = await store.put('runs/r1/manifest.json', 'first', { ifNoneMatch: true });
    const second = await store.put('runs/r1/manifest.json', 'second', { ifNoneMatch: true });

    // S3 would answer the second PUT with 412, which S3Store maps to written: false.
    expect([first, second]).toEqual([{ written: true }, { written: true }]);
    expect(text(await store.get('runs/r1/manifest.json'))).toBe('second');
  });

  it('fauxqs 1.9.2 lists in locale order (localeCompare), not in S3 byte order', async () => {
    const store = await createStore();
    for (const key of ['k/a', 'k/B', 'k/_', 'k/-', 'k/Z', 'k/c']) await store.put(key, '{}');

    // S3 would list k/-, k/B, k/Z, k/_, k/a, k/c.
    expect(await listAll(store, 'k/')).toEqual(['k/_', 'k/-', 'k/a', 'k/B', 'k/c', 'k/Z']);
  });

  it('fauxqs 1.9.2 repeats and drops keys when paging over keys whose locale and byte orders differ', async () => {
    const store = await createStore({ pageSize: 2 });
    for (const key of ['k/a', 'k/B', 'k/_', 'k/-', 'k/Z', 'k/c']) await store.put(key, '{}');

    // It sorts with localeCompare but resumes after the token by comparing code units.
    expect(await listAll(store, 'k/')).toEqual(['k/_', 'k/-', 'k/_', 'k/a', 'k/c']);
  });
});
