import { z } from 'zod';

/**
 * A TREC collection in the store: its files under one folder,
 * `datasets/<suite>/<name>.trec/`, and this manifest written there last as
 * `collection.json`. The manifest's upload is what starts the run, so the run
 * never reads a half-uploaded collection; the files' own uploads start
 * nothing. Each file carries the SHA-256 of its content: a changed file
 * changes the manifest, hence its ETag and the run id, and ingest checks that
 * the file it reads is the one the manifest names.
 */

/** A path inside the collection folder: `/`-separated names, none empty, `.` or `..`. */
const memberPathSchema = z
  .string()
  .min(1)
  .refine((path) => path.split('/').every((part) => part !== '' && part !== '.' && part !== '..' && !/[\\\u0000-\u001f]/.test(part)), {
    message: 'expected a relative path inside the collection folder, such as "runs/1/bm25.txt"',
  });

export const collectionMemberSchema = z.strictObject({
  path: memberPathSchema,
  sha256: z.string().regex(/^[0-9a-f]{64}$/, 'expected 64 lower-case hex digits'),
});
export type CollectionMember = z.infer<typeof collectionMemberSchema>;

export const collectionManifestSchema = z.strictObject({
  format: z.literal('trec'),
  qrels: collectionMemberSchema,
  runs: z.array(collectionMemberSchema).min(1),
  queries: collectionMemberSchema.optional(),
  corpus: collectionMemberSchema.optional(),
});
export type CollectionManifest = z.infer<typeof collectionManifestSchema>;

export const COLLECTION_MANIFEST_NAME = 'collection.json';

const COLLECTION_FOLDER = /^datasets\/[^/]+\/[^/]+\.trec\//;

/** `datasets/<suite>/<name>.trec/collection.json`: the key whose upload starts a collection's run. */
export function isCollectionManifestKey(key: string): boolean {
  return COLLECTION_FOLDER.test(key) && key.slice(COLLECTION_FOLDER.exec(key)?.[0].length) === COLLECTION_MANIFEST_NAME;
}

/** Any other key in a collection folder: a file of the collection, which starts no run of its own. */
export function isCollectionMemberKey(key: string): boolean {
  return COLLECTION_FOLDER.test(key) && !isCollectionManifestKey(key);
}

/** The folder of a collection, `datasets/<suite>/<name>.trec/`. */
export function collectionFolder(suite: string, name: string): string {
  return `datasets/${suite}/${name}.trec/`;
}
