import { describe, expect, it } from 'vitest';
import { collectionName } from '../../../cli/run/upload-input.js';
import { collectionManifestSchema, isCollectionManifestKey, isCollectionMemberKey } from '../../../shared/schema/collection-manifest.js';

const SHA = 'a'.repeat(64);

describe('collection keys', () => {
  it.each([
    ['datasets/trec/qrels.trec/collection.json', true, false],
    ['datasets/trec/qrels.trec/runs/1/results.test', false, true],
    ['datasets/trec/qrels.trec/qrels/qrels.test', false, true],
    ['datasets/trec/qrels.trec/runs/collection.json', false, true],
    ['datasets/trec/collection.json', false, false],
    ['datasets/trec/answers.jsonl', false, false],
    ['datasets/trec/sub/qrels.trec/collection.json', false, false],
    ['config/qrels.trec/collection.json', false, false],
  ])('%s: starts a collection run %s, is a file of a collection %s', (key, manifest, member) => {
    // Act / Assess
    expect(isCollectionManifestKey(key)).toBe(manifest);
    expect(isCollectionMemberKey(key)).toBe(member);
  });

  it.each([
    ['qrels.test', 'qrels'],
    ['/data/robust04.qrels.txt', 'robust04.qrels'],
    ['my qrels (v2).txt', 'my-qrels--v2-'],
    ['.hidden', 'hidden'],
    // With ".trec" the folder name stays within the 255 bytes a file system allows one name.
    [`${'q'.repeat(254)}.txt`, 'q'.repeat(250)],
  ])('names the collection of %s %s', (qrels, name) => {
    // Act / Assess
    expect(collectionName(qrels)).toBe(name);
  });
});

describe('collectionManifestSchema', () => {
  it('accepts the manifest assay writes', () => {
    // Act
    const parsed = collectionManifestSchema.safeParse({
      format: 'trec',
      qrels: { path: 'qrels/q.txt', sha256: SHA },
      runs: [{ path: 'runs/1/r.txt', sha256: SHA }],
    });

    // Assess
    expect(parsed.success).toBe(true);
  });

  it.each([
    ['a path that leaves the folder', { path: '../other/r.txt', sha256: SHA }],
    ['an absolute path', { path: '/etc/passwd', sha256: SHA }],
    ['an empty segment', { path: 'runs//r.txt', sha256: SHA }],
    ['a digest that is not SHA-256 hex', { path: 'runs/1/r.txt', sha256: 'abc' }],
  ])('rejects %s', (_described, run) => {
    // Act
    const parsed = collectionManifestSchema.safeParse({ format: 'trec', qrels: { path: 'qrels/q.txt', sha256: SHA }, runs: [run] });

    // Assess
    expect(parsed.success).toBe(false);
  });
});
