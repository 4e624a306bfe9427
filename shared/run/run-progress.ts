import pLimit from 'p-limit';
import { z } from 'zod';
import type { ObjectStore } from '../ports/object-store.js';
import { caseShard, runKeys } from './run-identity.js';
import { parseJsonWith } from '../schema/parse-json-with.js';

/**
 * From this many cases on, a completion check lists the run's results shard
 * by shard and skips the shards an earlier check found complete; below it,
 * one listing of the whole results folder is cheaper than 256 small ones.
 */
export const SHARDED_LISTING_FROM = 10_000;

/** `runs/<run>/progress.json`: the shards whose every case has a result or a failure. */
const progressSchema = z.object({ complete_shards: z.array(z.string()) });

/** Which of the run's case ids have neither a result nor a failure yet. */
export interface ShardedProgress {
  readonly unfinished: readonly string[];
  /** Store list calls this check made: what the shard progress saves. */
  readonly listings: number;
}

/**
 * The run's unfinished cases. A large run's check lists only the shards not
 * yet complete, and remembers the ones it finds complete in progress.json.
 * A shard stays complete (results are never deleted, and `assay redrive`,
 * which deletes failures, deletes progress.json with them), so the file only
 * grows; two checks writing it at once lose nothing but a listing, since
 * each writes the union of what it read and what it found. No counter: a
 * redelivered check reads and writes the same sets.
 */
export async function unfinishedCases(
  store: ObjectStore,
  runId: string,
  caseIds: readonly string[],
  options: { shardedListingFrom?: number } = {},
): Promise<ShardedProgress> {
  if (caseIds.length < (options.shardedListingFrom ?? SHARDED_LISTING_FROM)) {
    const finished = new Set([
      ...(await keysUnder(store, runKeys.resultsPrefix(runId))),
      ...(await keysUnder(store, runKeys.failuresPrefix(runId))),
    ]);
    const unfinished = caseIds.filter(
      (caseId) => !finished.has(runKeys.result(runId, caseId)) && !finished.has(runKeys.failure(runId, caseId)),
    );
    return { unfinished, listings: 2 };
  }
  const byShard = new Map<string, string[]>();
  for (const caseId of caseIds) {
    const shard = caseShard(caseId);
    const ids = byShard.get(shard) ?? [];
    ids.push(caseId);
    byShard.set(shard, ids);
  }
  const complete = await readProgress(store, runId);
  const limit = pLimit(16);
  let listings = 0;
  const newlyComplete: string[] = [];
  const unfinishedByShard = await Promise.all(
    [...byShard]
      .filter(([shard]) => !complete.has(shard))
      .sort(([left], [right]) => (left < right ? -1 : 1))
      .map(([shard, ids]) =>
        limit(async () => {
          listings += 2;
          const finished = new Set([
            ...(await keysUnder(store, runKeys.resultsShardPrefix(runId, shard))),
            ...(await keysUnder(store, runKeys.failuresShardPrefix(runId, shard))),
          ]);
          const unfinished = ids.filter(
            (caseId) => !finished.has(runKeys.result(runId, caseId)) && !finished.has(runKeys.failure(runId, caseId)),
          );
          if (unfinished.length === 0) newlyComplete.push(shard);
          return unfinished;
        }),
      ),
  );
  if (newlyComplete.length > 0) {
    const shards = [...new Set([...complete, ...newlyComplete])].sort();
    await store.put(runKeys.progress(runId), JSON.stringify({ complete_shards: shards }));
  }
  return { unfinished: unfinishedByShard.flat(), listings };
}

async function readProgress(store: ObjectStore, runId: string): Promise<Set<string>> {
  const bytes = await store.get(runKeys.progress(runId));
  if (bytes === undefined) return new Set();
  const parsed = parseJsonWith(progressSchema, bytes);
  // A progress file that does not parse only costs a full listing: start again from none.
  return new Set(parsed.ok ? parsed.value.complete_shards : []);
}

async function keysUnder(store: ObjectStore, prefix: string): Promise<string[]> {
  const keys: string[] = [];
  for await (const key of store.list(prefix)) keys.push(key);
  return keys;
}
