import type { ObjectStore } from '../ports/object-store.js';
import { ingestDataset, type IngestDependencies, type IngestOutcome } from '../ingest/ingest.js';
import type { RunConfig } from '../config/index.js';
import { isCollectionMemberKey } from '../schema/collection-manifest.js';

export interface ScheduledRunDependencies extends IngestDependencies {
  configFor(suite: string): Promise<{ config: RunConfig; judgeSummary: string }>;
}

export type ScheduledRunOutcome = { suite: string; outcome: IngestOutcome } | { suite: string; skipped: string };

/**
 * The nightly regression run: for each suite, its stored dataset (the last
 * key under `datasets/<suite>/` in byte order, so dated file names pick the
 * newest; a TREC collection counts by its manifest) is ingested again with the trigger `schedule:<date>`. The date is
 * part of the run id: each night gets its own run, and a schedule that fires
 * twice the same night starts no second run.
 */
export async function startScheduledRuns(
  dependencies: ScheduledRunDependencies,
  suites: readonly string[],
): Promise<ScheduledRunOutcome[]> {
  const date = dependencies.now().toISOString().slice(0, 10);
  const outcomes: ScheduledRunOutcome[] = [];
  for (const suite of suites) {
    const datasetKey = await latestDataset(dependencies.store, suite);
    if (datasetKey === undefined) {
      outcomes.push({ suite, skipped: `no dataset under datasets/${suite}/` });
      continue;
    }
    const { config, judgeSummary } = await dependencies.configFor(suite);
    const outcome = await ingestDataset(dependencies, {
      datasetKey,
      etag: 'stored',
      suite,
      trigger: `schedule:${date}`,
      config,
      judgeSummary,
    });
    outcomes.push({ suite, outcome });
  }
  return outcomes;
}

async function latestDataset(store: ObjectStore, suite: string): Promise<string | undefined> {
  let latest: string | undefined;
  for await (const key of store.list(`datasets/${suite}/`)) {
    if (/\.(jsonl|ndjson|json|csv)$/i.test(key) && !isCollectionMemberKey(key) && (latest === undefined || key > latest)) latest = key;
  }
  return latest;
}
