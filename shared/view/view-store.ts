import { createHash } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { LocalFolderStore } from '../ports/local-folder-store.js';
import { hasVersions, type ObjectStore, type VersionedObjects } from '../ports/object-store.js';
import { LocalViewStore } from './local-view-store.js';
import type { StoredObject, ViewStore } from './stored-object.js';

export type { StoredObject, ViewStore } from './stored-object.js';
export { RefusedListing } from './stored-object.js';

/**
 * The ViewStore of a store: a local folder read as regular files only
 * (LocalViewStore); a store that versions its objects (S3, by ETag) through
 * those versions; any other (memory) with the hash of the bytes as version.
 */
export function viewStoreOf(store: ObjectStore): ViewStore {
  if (store instanceof LocalFolderStore) return new LocalViewStore(store.root);
  if (hasVersions(store)) return versionedViewStore(store);
  return hashedViewStore(store);
}

function versionedViewStore(store: ObjectStore & VersionedObjects): ViewStore {
  return {
    list: (prefix) => store.list(prefix),
    read: async (key) => {
      const read = await store.getVersioned(key);
      return read === undefined ? { state: 'absent' } : { state: 'found', value: read.bytes, version: read.version };
    },
    version: async (key) => {
      const version = await store.versionOf(key);
      return version === undefined ? { state: 'absent' } : { state: 'found', value: undefined, version };
    },
    copy: async (key, path) => {
      const version = await store.downloadVersioned(key, path);
      return version === undefined ? { state: 'absent' } : { state: 'found', value: undefined, version };
    },
  };
}

/** For stores that keep objects in memory: the version is the hash of the bytes, read whole each time. */
function hashedViewStore(store: ObjectStore): ViewStore {
  const read = async (key: string): Promise<StoredObject<Uint8Array>> => {
    const bytes = await store.get(key);
    return bytes === undefined
      ? { state: 'absent' }
      : { state: 'found', value: bytes, version: createHash('sha256').update(bytes).digest('hex') };
  };
  return {
    list: (prefix) => store.list(prefix),
    read,
    version: async (key) => {
      const found = await read(key);
      return found.state === 'found' ? { state: 'found', value: undefined, version: found.version } : found;
    },
    copy: async (key, path) => {
      const found = await read(key);
      if (found.state !== 'found') return found;
      await writeFile(path, found.value);
      return { state: 'found', value: undefined, version: found.version };
    },
  };
}
