import { describe, expect, it } from 'vitest';
import { caseShard, runKeys } from '../../../shared/run/run-identity.js';
import { unfinishedCases } from '../../../shared/run/run-progress.js';
import { MemoryStore } from '../../../shared/ports/memory-store.js';
import { failure, result, RUN_ID } from '../report/factories.js';

/** A MemoryStore that records the prefix of every list call. */
class ListCountingStore extends MemoryStore {
  readonly listed: string[] = [];

  override list(prefix: string): AsyncIterable<string> {
    this.listed.push(prefix);
    return super.list(prefix);
  }
}

const caseIds = Array.from({ length: 2_000 }, (_, index) => `q${index}`);
const sharded = { shardedListingFrom: 1 };

async function storeFinished(store: MemoryStore, ids: readonly string[]): Promise<void> {
  for (const [index, caseId] of ids.entries()) {
    if (index % 10 === 0) await store.put(runKeys.failure(RUN_ID, caseId), JSON.stringify(failure(caseId)));
    else await store.put(runKeys.result(RUN_ID, caseId), JSON.stringify(result(caseId, {})));
  }
}

describe('shard progress', () => {
  it('lists only the shards a check has not yet found complete', async () => {
    // Prepare: every case finished but two of shard "7f"'s cases
    const store = new ListCountingStore();
    const waiting = caseIds.filter((caseId) => caseShard(caseId) === '7f').slice(0, 2);
    await storeFinished(
      store,
      caseIds.filter((caseId) => !waiting.includes(caseId)),
    );

    // Act: a first check, then a second one after nothing changed, then one after the last cases finished
    const first = await unfinishedCases(store, RUN_ID, caseIds, sharded);
    store.listed.length = 0;
    const second = await unfinishedCases(store, RUN_ID, caseIds, sharded);
    const listedBySecond = [...store.listed];
    await storeFinished(store, waiting);
    store.listed.length = 0;
    const third = await unfinishedCases(store, RUN_ID, caseIds, sharded);

    // Assess: the first lists all 256 shards (results and failures); later ones only shard 7f
    expect(first).toEqual({ unfinished: waiting, listings: 512 });
    expect(second).toEqual({ unfinished: waiting, listings: 2 });
    expect(listedBySecond).toEqual([runKeys.resultsShardPrefix(RUN_ID, '7f'), runKeys.failuresShardPrefix(RUN_ID, '7f')]);
    expect(third).toEqual({ unfinished: [], listings: 2 });
    const progress = JSON.parse(new TextDecoder().decode(await store.get(runKeys.progress(RUN_ID)))) as { complete_shards: string[] };
    expect(progress.complete_shards).toHaveLength(256);
  });

  it('gives the same answer when a check is delivered twice', async () => {
    // Prepare
    const store = new ListCountingStore();
    await storeFinished(store, caseIds.slice(0, 1_500));

    // Act
    const [once, again] = await Promise.all([
      unfinishedCases(store, RUN_ID, caseIds, sharded),
      unfinishedCases(store, RUN_ID, caseIds, sharded),
    ]);
    const after = await unfinishedCases(store, RUN_ID, caseIds, sharded);

    // Assess
    expect(once.unfinished).toEqual(again.unfinished);
    expect(after.unfinished).toEqual(once.unfinished);
    expect(new Set(after.unfinished)).toEqual(new Set(caseIds.slice(1_500)));
  });

  it('lists the whole results folder once for a run below the sharding size', async () => {
    // Prepare
    const store = new ListCountingStore();
    await storeFinished(store, caseIds.slice(0, 1_999));

    // Act
    const progress = await unfinishedCases(store, RUN_ID, caseIds);

    // Assess
    expect(progress).toEqual({ unfinished: ['q1999'], listings: 2 });
    expect(store.listed).toEqual([runKeys.resultsPrefix(RUN_ID), runKeys.failuresPrefix(RUN_ID)]);
    expect(await store.get(runKeys.progress(RUN_ID))).toBeUndefined();
  });
});
