import { createHash } from 'node:crypto';
import { mkdir, open, readFile } from 'node:fs/promises';
import { basename, dirname, extname, join } from 'node:path';
import { emptyCounts, loadDataset, loadTrecCollection, type DatasetEvent } from '../dataset/index.js';
import type { CollectionWork } from '../trec-collection/trec-collection-work.js';
import type { ObjectStore } from '../ports/object-store.js';
import {
  collectionManifestSchema,
  isCollectionManifestKey,
  type CollectionManifest,
  type CollectionMember,
} from '../schema/collection-manifest.js';
import type { InputError } from '../schema/input-error.js';
import { parseJsonWith } from '../schema/parse-json-with.js';
import { CASE_ID_RULE } from '../run/run-identity.js';

export interface DatasetSourceOptions {
  /** How many top chunks of each engine the judges read: a TREC collection's cases carry the corpus text of those only. */
  readonly contentDepth: number;
  /** Where a TREC collection's heavy loading steps run: in this thread by default, or on worker threads. */
  readonly collectionWork?: CollectionWork;
}

/**
 * The cases of a stored dataset, read through local files in `folder` with
 * bounded memory: a dataset file (JSONL, JSON, CSV) through the dataset
 * loader, or a TREC collection (its `collection.json` manifest) through the
 * collection loader. Input errors name the object keys, not the local copies.
 */
export async function* datasetEvents(
  store: ObjectStore,
  datasetKey: string,
  folder: string,
  options: DatasetSourceOptions,
): AsyncGenerator<DatasetEvent> {
  if (isCollectionManifestKey(datasetKey)) {
    yield* collectionEvents(store, datasetKey, folder, options);
    return;
  }
  // The local copy keeps only the extension, which says the format: an S3 key's last part may be longer than a file name can be.
  const datasetPath = join(folder, `dataset${extname(basename(datasetKey)).slice(0, 16)}`);
  if (!(await store.download(datasetKey, datasetPath))) {
    yield* missing({
      file: datasetKey,
      line: 0,
      message: 'the dataset object does not exist',
      fix: 'upload the dataset, then start the run',
    });
    return;
  }
  for await (const event of loadDataset(datasetPath, { spillFolder: join(folder, 'spill'), caseIds: CASE_ID_RULE })) {
    yield event.kind === 'error' ? { kind: 'error', error: { ...event.error, file: datasetKey } } : event;
  }
}

async function* collectionEvents(
  store: ObjectStore,
  manifestKey: string,
  folder: string,
  options: DatasetSourceOptions,
): AsyncGenerator<DatasetEvent> {
  const manifestPath = join(folder, 'collection.json');
  if (!(await store.download(manifestKey, manifestPath))) {
    yield* missing({
      file: manifestKey,
      line: 0,
      message: 'the collection manifest does not exist',
      fix: 'upload the collection, then start the run',
    });
    return;
  }
  const manifest = await readManifest(manifestKey, manifestPath);
  if ('message' in manifest) {
    yield* missing(manifest);
    return;
  }
  const prefix = manifestKey.slice(0, -'collection.json'.length);
  const keyOf = new Map<string, string>();
  /** A member copied here and checked against its hash: its path, or why not. */
  const fetch = async (member: CollectionMember | undefined): Promise<string | InputError | undefined> => {
    if (member === undefined) return undefined;
    const key = prefix + member.path;
    const path = join(folder, 'collection', member.path);
    keyOf.set(path, key);
    await mkdir(dirname(path), { recursive: true });
    if (!(await store.download(key, path)))
      return {
        file: key,
        line: 0,
        message: `the collection names ${member.path}, which is not in the store`,
        fix: 'upload every file of the collection, then its manifest',
      };
    if ((await fileSha256(path)) !== member.sha256)
      return {
        file: key,
        line: 0,
        message: `${member.path} is not the file the manifest names (its SHA-256 differs)`,
        fix: 'upload the collection again: its files, then its manifest',
      };
    return path;
  };
  // All at once, so one file's copy overlaps another's hashing; the errors still come in the manifest's order.
  const [qrelsFetched, queriesFetched, corpusFetched, ...runsFetched] = await Promise.all(
    [manifest.qrels, manifest.queries, manifest.corpus, ...manifest.runs].map(fetch),
  );
  const errors = [qrelsFetched, ...runsFetched, queriesFetched, corpusFetched].filter((fetched) => typeof fetched === 'object');
  const pathOf = (fetched: string | InputError | undefined): string | undefined => (typeof fetched === 'string' ? fetched : undefined);
  const qrels = pathOf(qrelsFetched);
  const runs = runsFetched.flatMap((fetched) => (typeof fetched === 'string' ? [fetched] : []));
  const queries = pathOf(queriesFetched);
  const corpus = pathOf(corpusFetched);
  for (const error of errors) yield { kind: 'error', error };
  const loaded = loadTrecCollection({
    qrels,
    runs,
    queries,
    corpus,
    spillFolder: join(folder, 'spill'),
    contentDepth: options.contentDepth,
    ...(options.collectionWork === undefined ? {} : { work: options.collectionWork }),
  });
  for await (const event of loaded) {
    if (event.kind === 'error') yield { kind: 'error', error: { ...event.error, file: keyOf.get(event.error.file) ?? event.error.file } };
    else if (event.kind === 'end') yield { kind: 'end', counts: { ...event.counts, errors: event.counts.errors + errors.length } };
    else yield event;
  }
}

async function readManifest(key: string, path: string): Promise<CollectionManifest | InputError> {
  const parsed = parseJsonWith(collectionManifestSchema, await readFile(path), 'a collection manifest');
  if (parsed.ok) return parsed.value;
  return {
    file: key,
    line: 0,
    message: parsed.error,
    fix: 'write it as assay run and assay submit do: JSON with format "trec", qrels and runs (each {"path", "sha256"}), and optionally queries and corpus',
  };
}

/**
 * The SHA-256 of a file's bytes, in hex: read in 1 MiB pieces into one
 * buffer (a stream's fresh buffer a piece cost as much as the hashing).
 */
export async function fileSha256(path: string): Promise<string> {
  const hash = createHash('sha256');
  const file = await open(path, 'r');
  try {
    const buffer = Buffer.allocUnsafe(1 << 20);
    for (
      let read = await file.read(buffer, 0, buffer.length, null);
      read.bytesRead > 0;
      read = await file.read(buffer, 0, buffer.length, null)
    )
      hash.update(buffer.subarray(0, read.bytesRead));
  } finally {
    await file.close();
  }
  return hash.digest('hex');
}

function* missing(error: InputError): Generator<DatasetEvent> {
  yield { kind: 'error', error };
  yield { kind: 'end', counts: { ...emptyCounts(), errors: 1 } };
}
