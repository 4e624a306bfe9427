import { z } from 'zod';
import { runWaitSeconds } from '../judge-client/batch-settings.js';
import type { ObjectStore } from '../ports/object-store.js';
import { readJsonWith } from '../schema/parse-json-with.js';
import { caseIdsSchema, type Manifest } from '../schema/run-records.js';
import { runKeys } from './run-identity.js';
import { unfinishedCases } from './run-progress.js';
import { readManifest, runConfigOf } from './stored-config.js';

/**
 * How far a run has come, read from the store alone: its case ids, which of
 * them have a result or a failure, and the deadline after which the reducer
 * stops waiting. The reducer decides with it, and so does a local driver that
 * shares its queues with other runs and so cannot count completions itself.
 */
export interface RunCompletion {
  readonly manifest: Manifest;
  /** The run's own cases: what its report aggregates. */
  readonly caseIds: readonly string[];
  /** The cases of its canary set (config `canaries:`), judged beside its own and reported apart; none without one. */
  readonly canaryCaseIds: readonly string[];
  /** Case ids, the canary's included, with neither a result nor a failure yet. */
  readonly unfinished: readonly string[];
  /** Cases, the canary's included, with a result or a failure. */
  readonly finished: number;
  /** Every case the run waits for: its own and its canary's. */
  readonly total: number;
  readonly deadline: Date;
}

/**
 * A later deadline than the manifest's, written when a run is resumed or
 * redriven: the manifest is written once, and a run finished a day after its
 * first deadline must not be reported at once with its cases missing.
 */
export const deadlineExtensionSchema = z.object({ deadline: z.iso.datetime() });

export async function runCompletion(
  store: ObjectStore,
  runId: string,
  options: { shardedListingFrom?: number } = {},
): Promise<RunCompletion> {
  const manifest = await readManifest(store, runId);
  // A case id listed twice is one case: it is waited for, and counted, once.
  const caseIds = await readCaseIds(store, runKeys.caseIds(runId));
  const canaryCaseIds = manifest.canary === undefined ? [] : await readCaseIds(store, runKeys.canaryCaseIds(runId));
  const total = caseIds.length + canaryCaseIds.length;
  const { unfinished } = await unfinishedCases(store, runId, [...caseIds, ...canaryCaseIds], options);
  return {
    manifest,
    caseIds,
    canaryCaseIds,
    unfinished,
    finished: total - unfinished.length,
    total,
    deadline: await runDeadline(store, manifest),
  };
}

/** A list of case ids, each once. */
async function readCaseIds(store: ObjectStore, key: string): Promise<string[]> {
  return [...new Set(readJsonWith(caseIdsSchema, (await store.get(key)) ?? new Uint8Array(), key))];
}

/** The manifest's deadline, or the later one a resume or redrive set. */
export async function runDeadline(store: ObjectStore, manifest: Manifest): Promise<Date> {
  const first = new Date(manifest.deadline);
  const bytes = await store.get(runKeys.deadline(manifest.run_id));
  if (bytes === undefined) return first;
  const extension = readJsonWith(deadlineExtensionSchema, bytes, runKeys.deadline(manifest.run_id));
  return new Date(Math.max(first.getTime(), Date.parse(extension.deadline)));
}

/** Moves a run's deadline to its configured length from `now`, for a resume or a redrive. */
export async function extendDeadline(store: ObjectStore, manifest: Manifest, now: Date): Promise<void> {
  const seconds = runWaitSeconds(runConfigOf(manifest));
  const deadline = new Date(now.getTime() + seconds * 1000).toISOString();
  await store.put(runKeys.deadline(manifest.run_id), JSON.stringify({ deadline }));
}
