import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, extname, join } from 'node:path';
import { fileSha256 } from '../../shared/ingest/dataset-source.js';
import type { ObjectStore } from '../../shared/ports/object-store.js';
import {
  collectionFolder,
  COLLECTION_MANIFEST_NAME,
  type CollectionManifest,
  type CollectionMember,
} from '../../shared/schema/collection-manifest.js';

/** The files of a TREC collection on this machine. */
export interface TrecCollectionPaths {
  readonly qrels: string;
  readonly runs: readonly string[];
  readonly queries?: string;
  readonly corpus?: string;
}

/** What a run evaluates: one dataset file, or a TREC collection. */
export interface RunInput {
  readonly datasetPath?: string;
  readonly collection?: TrecCollectionPaths;
}

/**
 * Stores a run's input where ingest reads it and returns the key ingest
 * starts the run from, with its ETag (on AWS, its ObjectCreated event's): a dataset file goes to
 * `datasets/<suite>/<file>`; a TREC collection's files go under
 * `datasets/<suite>/<qrels name>.trec/` (qrels/, runs/<n>/, queries/,
 * corpus/, each keeping its file name, so runs are named as `assay validate`
 * names them), then its `collection.json` manifest, last.
 */
export async function uploadInput(store: ObjectStore, suite: string, input: RunInput): Promise<{ key: string; etag: string }> {
  if (input.collection !== undefined) return uploadCollection(store, suite, input.collection);
  if (input.datasetPath === undefined) throw new Error('A run needs a dataset file or a TREC collection');
  const key = `datasets/${suite}/${basename(input.datasetPath)}`;
  const { etag } = await store.upload(key, input.datasetPath);
  return { key, etag };
}

async function uploadCollection(
  store: ObjectStore,
  suite: string,
  collection: TrecCollectionPaths,
): Promise<{ key: string; etag: string }> {
  const folder = collectionFolder(suite, collectionName(collection.qrels));
  const upload = async (path: string, member: string): Promise<CollectionMember> => {
    await store.upload(folder + member, path, { etag: false });
    return { path: member, sha256: await fileSha256(path) };
  };
  const manifest: CollectionManifest = {
    format: 'trec',
    qrels: await upload(collection.qrels, `qrels/${basename(collection.qrels)}`),
    runs: await Promise.all(collection.runs.map((run, index) => upload(run, `runs/${index + 1}/${basename(run)}`))),
  };
  if (collection.queries !== undefined) manifest.queries = await upload(collection.queries, `queries/${basename(collection.queries)}`);
  if (collection.corpus !== undefined) manifest.corpus = await upload(collection.corpus, `corpus/${basename(collection.corpus)}`);
  const scratch = await mkdtemp(join(tmpdir(), 'assay-collection-'));
  try {
    const manifestPath = join(scratch, COLLECTION_MANIFEST_NAME);
    await writeFile(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`);
    const key = folder + COLLECTION_MANIFEST_NAME;
    const { etag } = await store.upload(key, manifestPath);
    return { key, etag };
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

/** The collection's folder name: the qrels file's name without its extension, in key-safe characters, short enough that `<name>.trec` fits a file system's 255-byte names. */
export function collectionName(qrels: string): string {
  const stem = basename(qrels, extname(qrels)) || basename(qrels);
  return (
    stem
      .replace(/[^A-Za-z0-9._-]/g, '-')
      .replace(/^\.+/, '')
      .slice(0, 250) || 'collection'
  );
}
