import { rm } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { createReadStream } from 'node:fs';
import type { ObjectStore } from '../ports/object-store.js';
import { sendAll, type OutgoingMessage, type WorkQueue } from '../ports/work-queue.js';
import { readJsonWith } from '../schema/parse-json-with.js';
import { caseMessageSchema, type CaseMessage, type CheckMessage } from '../schema/pipeline-messages.js';
import type { Result } from '../schema/result.js';
import type { Manifest } from '../schema/run-records.js';
import { spoolCanary, spoolCases, spoolOptionsOf, startWorkFolder } from '../ingest/ingest.js';
import type { WorkFolderSettings } from '../run/work-folders.js';
import { extendDeadline, runCompletion } from '../run/run-completion.js';
import { runKeys } from '../run/run-identity.js';
import { runConfigOf } from '../run/stored-config.js';
import { inCurrentRound, readBatchState } from '../batch-judging/batch-state.js';
import { waitingCaseIds } from '../batch-judging/waiting-cases.js';

export interface ResumeDependencies {
  readonly store: ObjectStore;
  readonly cases: WorkQueue;
  readonly control: WorkQueue;
  readonly now: () => Date;
  readonly workFolders?: WorkFolderSettings;
}

export type ResumeOutcome =
  | {
      kind: 'requeued';
      caseIds: string[];
      /** Cases of a batch-judged run that wait on the round's jobs: not sent, the jobs answer them. */
      waiting: number;
      /** Cases that failed: a failure record and no result; `assay redrive` sends them, resume does not. */
      failed: number;
    }
  | { kind: 'unresumable'; reason: string };

/**
 * `assay resume RUN`: finishes a run whose process died (a kill, a crash, a
 * closed laptop). The queue messages of an embedded run died with it, so the
 * cases are read again from the run's stored dataset, exactly as ingest read
 * them, and every case with neither a result nor a failure is sent again;
 * cases already finished are not. The deadline moves to the configured length
 * from now. Judgments paid before the kill come back from the judge cache.
 */
export async function resumeRun(dependencies: ResumeDependencies, runId: string): Promise<ResumeOutcome> {
  const { store } = dependencies;
  if ((await store.get(runKeys.manifest(runId))) === undefined) {
    return {
      kind: 'unresumable',
      reason: `run ${runId} has no manifest: it stopped before ingest claimed it, so nothing of it was judged; start it again with assay run`,
    };
  }
  const completion = await runCompletion(store, runId);
  const { manifest } = completion;
  // A case of a batch-judged run that waits for the jobs of the round is not sent: the jobs answer it, wherever they are.
  const { round } = await readBatchState(store, runId);
  const waiting = new Set(await waitingCaseIds(store, runId, round));
  const unfinished = new Set(completion.unfinished.filter((caseId) => !waiting.has(caseId)));
  const waitingUnfinished = completion.unfinished.length - unfinished.size;
  const inRound = await inCurrentRound(store, runId);
  await extendDeadline(store, manifest, dependencies.now());
  const sent = await sendCasesAgain(dependencies, runId, manifest, unfinished, completion.canaryCaseIds, inRound);
  if (!sent.ok) return { kind: 'unresumable', reason: sent.error };
  const check: CheckMessage = { kind: 'check', run_id: runId, attempt: 0 };
  await sendAll(dependencies.control, [{ id: 'check', body: JSON.stringify(check), delaySeconds: 1 }]);
  if ((await store.get(runKeys.ingested(runId))) === undefined) {
    await store.put(runKeys.ingested(runId), JSON.stringify({ run_id: runId, rows: sent.value.rows, cases: manifest.cases }));
  }
  return { kind: 'requeued', caseIds: sent.value.caseIds, waiting: waitingUnfinished, failed: await failedCases(store, runId) };
}

/**
 * Reads the run's stored dataset again (and its canary set, when one of
 * `caseIds` is a canary case) and sends the case messages of `caseIds` to the
 * cases queue, in the run's current round, as ingest first sent them: what
 * `assay resume` sends for unfinished cases, and `assay redrive` for cases
 * lacking a judgment. A failure when the dataset or canary set changed since
 * the run started (their case counts differ): nothing is sent then, and
 * `beforeSending` is not run.
 */
export async function sendCasesAgain(
  dependencies: Pick<ResumeDependencies, 'store' | 'cases' | 'workFolders'>,
  runId: string,
  manifest: Manifest,
  caseIds: ReadonlySet<string>,
  canaryCaseIds: readonly string[],
  inRound: (message: CaseMessage) => CaseMessage,
  /** Run once the dataset (and canary set) read as the run's, before any message is sent. */
  beforeSending: () => Promise<void> = async () => {},
): Promise<Result<{ caseIds: string[]; rows: number }>> {
  const { store } = dependencies;
  const folder = await startWorkFolder(dependencies, 'resume');
  try {
    const spooled = await spoolCases(store, runId, manifest.dataset.key, folder, spoolOptionsOf(runConfigOf(manifest)));
    if (spooled.cases !== manifest.cases) {
      return {
        ok: false,
        error: (await holds(store, manifest.dataset.key))
          ? `the dataset ${manifest.dataset.key} now has ${spooled.cases} ${spooled.cases === 1 ? 'case' : 'cases'}, the run had ${manifest.cases}: it changed since the run started, so the run cannot be finished from it`
          : `the dataset ${manifest.dataset.key} is no longer in the store, so the run's cases cannot be read again from it`,
      };
    }
    // The canary set is read again too, when the run has one and a canary case is to be sent.
    const canary = canaryCaseIds.some((caseId) => caseIds.has(caseId))
      ? await spoolCanary(store, runId, manifest.suite, runConfigOf(manifest), folder)
      : undefined;
    if (canary !== undefined && canary.manifest.cases !== manifest.canary?.cases) {
      return {
        ok: false,
        error: `the canary set ${canary.manifest.key} now has ${canary.manifest.cases} cases, the run had ${manifest.canary?.cases ?? 0}: it changed since the run started, so the run cannot be finished from it`,
      };
    }
    await beforeSending();
    const sent: string[] = [];
    let batch: OutgoingMessage[] = [];
    for (const path of [spooled.messagesPath, ...(canary === undefined ? [] : [canary.messagesPath])]) {
      for await (const body of createInterface({ input: createReadStream(path), crlfDelay: Number.POSITIVE_INFINITY })) {
        if (body === '') continue;
        const message = readJsonWith(caseMessageSchema, body, path);
        if (!caseIds.has(message.case_id)) continue;
        sent.push(message.case_id);
        const inThisRound = inRound(message);
        batch.push({ id: String(batch.length), body: inThisRound === message ? body : JSON.stringify(inThisRound) });
        if (batch.length === 10) {
          await sendAll(dependencies.cases, batch);
          batch = [];
        }
      }
    }
    await sendAll(dependencies.cases, batch);
    return { ok: true, value: { caseIds: sent.sort(), rows: spooled.rows } };
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

/** The cases of the run with a failure record and no result: those `assay redrive` would send again. */
async function failedCases(store: ObjectStore, runId: string): Promise<number> {
  let failed = 0;
  for await (const key of store.list(runKeys.failuresPrefix(runId))) {
    const caseId = key.slice(key.lastIndexOf('/') + 1, -'.json'.length);
    if ((await store.get(runKeys.result(runId, caseId))) === undefined) failed++;
  }
  return failed;
}

/** Whether the store holds `key` (listed under its own name: no object is read). */
async function holds(store: ObjectStore, key: string): Promise<boolean> {
  for await (const listed of store.list(key)) if (listed === key) return true;
  return false;
}
