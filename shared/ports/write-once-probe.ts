import { randomUUID } from 'node:crypto';
import type { ObjectStore } from './object-store.js';

/**
 * Whether the store refuses a second write-once put of a key, as S3 does
 * (`If-None-Match: *`): a put of a probe key, a second put of it, then its
 * delete. Some S3-compatible emulators take the header and ignore it. There a
 * case delivered twice would keep its later result, and the judge calls of the
 * earlier delivery would leave the report's counts; two operators could both
 * take a run's lease. A run over such an endpoint looks for a key before each
 * write-once put (S3StoreOptions.lookBeforeWriteOnce) and says so. The probe
 * key is random and removed: it is no part of a run.
 */
export async function refusesSecondWriteOnce(store: ObjectStore): Promise<boolean> {
  const key = `assay-probes/write-once-${randomUUID()}.txt`;
  try {
    await store.put(key, 'first', { ifNoneMatch: true });
    const second = await store.put(key, 'second', { ifNoneMatch: true });
    return !second.written;
  } finally {
    await store.delete(key);
  }
}

/** The warning for an endpoint whose S3 does not refuse a second write-once put; `host` names it. */
export function writeOnceIgnoredWarning(host: string): string {
  return (
    `assay: warning: the S3 at ${host} ignores If-None-Match (a second write-once put of a key was accepted): ` +
    'assay looks for each such key before it writes it, which narrows but cannot close the moment in which a case delivered twice ' +
    'keeps its later result (the judge calls of the earlier delivery then go uncounted) or two assay resume of one run both go on; ' +
    'an S3 that honours conditional writes, as AWS S3 does, closes it'
  );
}
