import { dirname, isAbsolute, join } from 'node:path';
import { canaryDatasetKey } from '../../shared/run/canary-keys.js';
import type { ConfigFile } from '../../shared/config/index.js';
import type { ObjectStore } from '../../shared/ports/object-store.js';
import { assertReadableFile } from '../readable-file.js';

/**
 * The canary set of a config (`canaries.dataset`) on this machine: the path
 * as written when absolute, else read from the config file's folder, so a
 * committed config finds its canary beside it wherever it is run from. A
 * missing file is a usage error before any work; undefined for a config
 * without canaries.
 */
export async function canaryFileOf(config: ConfigFile, configPath: string | undefined): Promise<string | undefined> {
  if (config.canaries === undefined) return undefined;
  const { dataset } = config.canaries;
  const path = isAbsolute(dataset) || configPath === undefined ? dataset : join(dirname(configPath), dataset);
  await assertReadableFile(path, 'canary set (canaries.dataset)');
  return path;
}

/** Stores the canary set where ingest reads it, `canaries/<suite>/<file>`: outside datasets/, so storing it starts no run. */
export async function uploadCanary(store: ObjectStore, suite: string, config: ConfigFile, path: string | undefined): Promise<void> {
  if (config.canaries === undefined || path === undefined) return;
  await store.upload(canaryDatasetKey(suite, config.canaries.dataset), path, { etag: false });
}
