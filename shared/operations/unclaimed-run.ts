import { hasVersions, type ObjectStore } from '../ports/object-store.js';
import { isCollectionManifestKey } from '../schema/collection-manifest.js';
import { runIdentityOf } from '../run/run-identity.js';
import { suiteConfig } from '../run/suite-config.js';

/**
 * What the store holds of a run that has no manifest yet: ingest has not
 * claimed it, but the run is on its way.
 * - `run-folder`: something under `runs/<run>/`; `assay run` (and `--aws-endpoint`)
 *   takes the run's lease there before ingest reads the dataset.
 * - `upload`: a dataset (or a TREC collection's manifest) uploaded to a
 *   deployed stack's bucket whose run is this one: the id `assay submit`
 *   printed, derived from the object's key and ETag and its suite's config,
 *   as ingest will derive it when the upload's event reaches it.
 */
export type UnclaimedRun = { readonly kind: 'run-folder' } | { readonly kind: 'upload'; readonly key: string };

/**
 * The run's trace in the store before its manifest, or undefined when the
 * store holds nothing of it: the id names no run there (mistyped, or of
 * another store). Only a store that tells an object's ETag without reading
 * it (S3) can match an upload; a local folder's runs all start with a lease.
 */
export async function unclaimedRun(store: ObjectStore, runId: string): Promise<UnclaimedRun | undefined> {
  for await (const _key of store.list(`runs/${runId}/`)) return { kind: 'run-folder' };
  if (!hasVersions(store)) return undefined;
  for await (const key of store.list('datasets/')) {
    const suite = startingSuiteOf(key);
    if (suite === undefined) continue;
    const etag = await store.versionOf(key);
    if (etag === undefined) continue;
    // A suite whose config no longer parses starts no run: its uploads are not this one.
    const config = await suiteConfig(store, suite).catch(() => undefined);
    if (config === undefined) continue;
    if (runIdentityOf({ datasetKey: key, etag, trigger: 'upload', config }).runId === runId) return { kind: 'upload', key };
  }
  return undefined;
}

/** What `assay status` says of such a run: why it has no manifest yet. */
export function describeUnclaimed(unclaimed: UnclaimedRun): string {
  return unclaimed.kind === 'upload' ? `ingest has not claimed ${unclaimed.key} yet` : 'ingest has not claimed it';
}

/** The suite of a key whose upload starts a run (`datasets/<suite>/<file>`, or a collection's manifest); undefined for any other key. */
function startingSuiteOf(key: string): string | undefined {
  const parts = key.split('/');
  if (parts.length === 3 || isCollectionManifestKey(key)) return parts[1];
  return undefined;
}
