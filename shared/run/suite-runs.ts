import { z } from 'zod';
import type { ObjectStore } from '../ports/object-store.js';
import type { Manifest } from '../schema/run-records.js';
import { parseJsonWith } from '../schema/parse-json-with.js';
import { runKeys } from './run-identity.js';

/**
 * The reported runs of a suite in run time (the manifest's `created_at`), so
 * that `reports/<suite>/latest.json` only ever moves forward: a run finished
 * late (`assay resume` of last week's run, a slow reducer) is reported but
 * does not become the run the next nightly run compares with.
 *
 * Each report adds one object of its own, `reports/<suite>/runs/<time>_<run>.json`,
 * which no other writer touches; latest.json is then set to the newest run
 * the listing shows, and the writer lists again after its write until the
 * listing and latest.json agree. Of writers racing, the last to write has
 * listed after every other's entry was in place, so latest.json ends at the
 * newest run on any store whose listings show finished writes (S3, a folder),
 * with no conditional write needed.
 */

export const suiteRunSchema = z.object({ run_id: z.string(), created_at: z.string(), report: z.string() });
export type SuiteRun = z.infer<typeof suiteRunSchema>;

const indexPrefix = (suite: string): string => `reports/${suite}/runs/`;

/** `2026-11-26T01:02:03.456Z` → `20261126T010203456Z`: sorts as the time does, and is a plain file name everywhere. */
function timeStamp(createdAt: string): string {
  return new Date(createdAt).toISOString().replace(/[-:.]/g, '');
}

export function suiteRunOf(manifest: Pick<Manifest, 'suite' | 'run_id' | 'created_at'>): SuiteRun {
  return {
    run_id: manifest.run_id,
    created_at: manifest.created_at,
    report: runKeys.report(manifest.suite, manifest.run_id, 'report.json'),
  };
}

/** Whether `left` comes after `right` in run time; equal times are ordered by run id, so every writer agrees. */
export function isNewer(left: SuiteRun, right: SuiteRun): boolean {
  const difference = Date.parse(left.created_at) - Date.parse(right.created_at);
  return difference !== 0 ? difference > 0 : left.run_id > right.run_id;
}

/** Records a reported run of the suite and moves latest.json to the newest reported run. */
export async function recordReportedRun(store: ObjectStore, suite: string, run: SuiteRun): Promise<void> {
  await store.put(`${indexPrefix(suite)}${timeStamp(run.created_at)}_${run.run_id}.json`, JSON.stringify(run));
  // Each round either ends or follows a newer run's write; more rounds than this mean listings that miss finished writes.
  for (let round = 0; round < MAX_LATEST_ROUNDS; round++) {
    const newest = await newestRun(store, suite);
    const latest = await readLatest(store, suite);
    if (newest === undefined || (latest !== undefined && latest.run_id === newest.run_id)) return;
    await store.put(runKeys.latest(suite), JSON.stringify(newest));
  }
  throw new Error(
    `Expected ${runKeys.latest(suite)} to settle on the newest run within ${MAX_LATEST_ROUNDS} writes; the store's listings do not show its writes`,
  );
}

const MAX_LATEST_ROUNDS = 50;

/** The newest reported run before `run` in run time: the one a new report is compared with when the suite has no baseline. */
export async function previousRun(store: ObjectStore, suite: string, run: SuiteRun): Promise<SuiteRun | undefined> {
  let previous: SuiteRun | undefined;
  for (const candidate of await reportedRuns(store, suite)) {
    if (candidate.run_id !== run.run_id && isNewer(run, candidate) && (previous === undefined || isNewer(candidate, previous)))
      previous = candidate;
  }
  return previous;
}

async function newestRun(store: ObjectStore, suite: string): Promise<SuiteRun | undefined> {
  let newest: SuiteRun | undefined;
  for (const candidate of await reportedRuns(store, suite)) if (newest === undefined || isNewer(candidate, newest)) newest = candidate;
  return newest;
}

/**
 * The runs of the index, and the run latest.json names: a store written
 * before the index existed has only latest.json, whose run still counts.
 */
async function reportedRuns(store: ObjectStore, suite: string): Promise<SuiteRun[]> {
  const runs: SuiteRun[] = [];
  for await (const key of store.list(indexPrefix(suite))) {
    const entry = await readRecord(store, key);
    if (entry !== undefined) runs.push(entry);
  }
  const latest = await readLatest(store, suite);
  if (latest !== undefined && !runs.some((run) => run.run_id === latest.run_id)) runs.push(latest);
  return runs;
}

async function readLatest(store: ObjectStore, suite: string): Promise<SuiteRun | undefined> {
  return readRecord(store, runKeys.latest(suite));
}

/** An entry that does not parse (hand-edited, half a run's id) names no run: it is left out, never trusted. */
async function readRecord(store: ObjectStore, key: string): Promise<SuiteRun | undefined> {
  const bytes = await store.get(key);
  if (bytes === undefined) return undefined;
  const parsed = parseJsonWith(suiteRunSchema, bytes);
  return parsed.ok && Number.isFinite(Date.parse(parsed.value.created_at)) ? parsed.value : undefined;
}
