import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { LocalFolderStore } from '../shared/ports/local-folder-store.js';
import type { ObjectStore } from '../shared/ports/object-store.js';
import { endpointUrl } from './option-values.js';
import { UsageError } from './usage-error.js';

/** `--store DIR | --aws-endpoint URL | --bucket B`, as a command that reads an existing store takes them. */
export interface StoreOptions {
  readonly store?: string;
  readonly bucket?: string;
  readonly awsEndpoint?: string;
}

/** The bucket `assay run --aws-endpoint` creates and uses at an endpoint when no bucket is named. */
const ENDPOINT_BUCKET = 'assay';

/**
 * The store the options name: a local folder (`.assay` by default), which
 * must exist; a deployed stack's bucket (`--bucket`, at AWS or at
 * `--aws-endpoint`); or the bucket `assay run --aws-endpoint` uses. The AWS
 * SDK is loaded only for a bucket.
 */
export async function existingStore(options: StoreOptions): Promise<{ store: ObjectStore; name: string }> {
  const endpoint = endpointUrl(options.awsEndpoint);
  if (options.store !== undefined && (options.bucket !== undefined || endpoint !== undefined)) {
    throw new UsageError('--store names a local folder and --bucket or --aws-endpoint a bucket; give one or the other');
  }
  if (options.bucket !== undefined || endpoint !== undefined) {
    const bucket = options.bucket ?? ENDPOINT_BUCKET;
    const { bucketStore } = await import('./run/bucket-store.js');
    return { store: bucketStore(bucket, endpoint), name: `bucket ${bucket}${endpoint === undefined ? '' : ` at ${endpoint}`}` };
  }
  const folder = resolve(options.store ?? '.assay');
  const found = await stat(folder).catch(() => undefined);
  if (found === undefined || !found.isDirectory())
    throw new UsageError(`No store at ${folder}; give the folder assay run wrote with --store, or a bucket with --bucket`);
  return { store: new LocalFolderStore(folder), name: `store ${folder}` };
}
