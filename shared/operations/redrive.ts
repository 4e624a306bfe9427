import type { ObjectStore } from '../ports/object-store.js';
import { sendAll, type WorkQueue } from '../ports/work-queue.js';
import { readJsonWith } from '../schema/parse-json-with.js';
import { parseCaseMessage, type CheckMessage } from '../schema/pipeline-messages.js';
import { inCurrentRound } from '../batch-judging/batch-state.js';
import { caseFailureSchema, caseResultSchema, type CaseResult } from '../schema/run-records.js';
import { judgeFailuresOf } from '../report/judge-failures.js';
import { reportSchema, type Report } from '../schema/report.js';
import type { WorkFolderSettings } from '../run/work-folders.js';
import { sendCasesAgain } from './resume.js';
import { extendDeadline, runCompletion } from '../run/run-completion.js';
import { runKeys } from '../run/run-identity.js';

export type RedriveOutcome =
  | {
      readonly kind: 'requeued';
      /** Failed cases sent again from their failure records. */
      readonly requeued: string[];
      /** Cases lacking a judgment (a judge failed them for good) sent again from the stored dataset. */
      readonly rejudged: string[];
    }
  /** The dataset or canary set changed since the run started: the failed cases were sent; the cases lacking a judgment keep their results. */
  | { readonly kind: 'dataset-changed'; readonly requeued: string[]; readonly reason: string }
  /** Cases of the run have neither a result nor a failure: nothing was sent, since only `assay resume` sends those. */
  | { readonly kind: 'unfinished'; readonly unfinished: number; readonly cases: number };

/**
 * `assay redrive RUN`: sends every failed case of a run back to the cases
 * queue, as it was first sent, and schedules a completion check. The failure
 * record goes as the case goes back, so the run counts the case as pending
 * until it ends again: with a result, or a fresh failure record (a redrive
 * cut short leaves it missing, and `assay resume` sends it once more). A
 * case whose result lacks a judgment (a judge failed it for good) is sent
 * again from the run's stored dataset, as `assay resume` sends a case: its
 * result goes, and the judge usage it paid is kept as an attempt's, so the
 * report still counts every call; its other judgments come back from the
 * judge cache. Other cases with a result are never sent again. The deadline
 * moves to the configured length from now.
 *
 * A run with cases that have neither a result nor a failure (its process was
 * killed, its deadline passed, its batch jobs still answer) is unfinished:
 * redrive sends nothing, since the run would never be complete and its drive
 * would wait for those cases until the deadline; `assay resume` finishes it.
 */
export async function redriveFailures(
  store: ObjectStore,
  queues: { readonly cases: WorkQueue; readonly control: WorkQueue; readonly workFolders?: WorkFolderSettings },
  runId: string,
  now: Date = new Date(),
): Promise<RedriveOutcome> {
  const completion = await runCompletion(store, runId);
  if (completion.unfinished.length > 0) return { kind: 'unfinished', unfinished: completion.unfinished.length, cases: completion.total };
  await extendDeadline(store, completion.manifest, now);
  const requeued: string[] = [];
  const bodies: string[] = [];
  const inRound = await inCurrentRound(store, runId);
  // Read before any case is sent: a failed case sent again may end with a new result lacking a judgment meanwhile.
  const lacking = await casesLackingJudgment(store, runId, completion.manifest.suite);
  for await (const key of store.list(runKeys.failuresPrefix(runId))) {
    const bytes = await store.get(key);
    if (bytes === undefined) continue;
    const failure = readJsonWith(caseFailureSchema, bytes, key);
    if ((await store.get(runKeys.result(runId, failure.case_id))) !== undefined) continue;
    requeued.push(failure.case_id);
    const message = parseCaseMessage(failure.message);
    // A message that no longer parses goes as it was, and fails again with its reason.
    bodies.push(message.ok ? JSON.stringify(inRound(message.value)) : failure.message);
  }
  await sendAll(
    queues.cases,
    bodies.map((body, index) => ({ id: String(index % 10), body })),
  );
  for (const caseId of requeued) await store.delete(runKeys.failure(runId, caseId));
  let rejudged: string[] = [];
  let unsent: string | undefined;
  if (lacking.size > 0) {
    // Once the dataset reads as the run's: the calls the old results paid stay counted (as a delivery's that
    // ended in a retry), then the results go, so that the cases are pending until they end again.
    const supersede = async (): Promise<void> => {
      for (const [caseId, usage] of lacking) {
        await store.put(runKeys.attemptUsage(runId, caseId, `redrive-${now.getTime()}`), JSON.stringify(usage));
        await store.delete(runKeys.result(runId, caseId));
      }
    };
    const sent = await sendCasesAgain(
      { store, cases: queues.cases, ...(queues.workFolders === undefined ? {} : { workFolders: queues.workFolders }) },
      runId,
      completion.manifest,
      new Set(lacking.keys()),
      completion.canaryCaseIds,
      inRound,
      supersede,
    );
    if (sent.ok) rejudged = sent.value.caseIds;
    else unsent = sent.error;
  }
  // Shards marked complete may hold a deleted failure or result: the next check lists every shard again.
  // Partials of an earlier split reduce no longer hold those cases' outcomes either.
  if (requeued.length > 0 || rejudged.length > 0) {
    await store.delete(runKeys.progress(runId));
    const partials: string[] = [];
    for await (const key of store.list(runKeys.partialsPrefix(runId))) partials.push(key);
    for (const key of partials) await store.delete(key);
  }
  const check: CheckMessage = { kind: 'check', run_id: runId, attempt: 0 };
  await sendAll(queues.control, [{ id: 'check', body: JSON.stringify(check), delaySeconds: 1 }]);
  if (unsent !== undefined) return { kind: 'dataset-changed', requeued: requeued.sort(), reason: unsent };
  return { kind: 'requeued', requeued: requeued.sort(), rejudged };
}

/**
 * The run's results with a judgment that ended in error (judge-failures.ts),
 * by case id, with the judge usage they paid. The run's report names them
 * (its `failed_cases` entries with a judge), so only those results are read;
 * a run without a report, or whose report no longer reads, has every result read.
 */
async function casesLackingJudgment(store: ObjectStore, runId: string, suite: string): Promise<Map<string, CaseResult['judge_usage']>> {
  const reportKey = runKeys.report(suite, runId, 'report.json');
  const report = reportOf(await store.get(reportKey));
  const keys: string[] = [];
  if (report === undefined) {
    for await (const key of store.list(runKeys.resultsPrefix(runId))) keys.push(key);
  } else {
    const named = report.failed_cases.flatMap((entry) => (entry.judge === undefined ? [] : [entry.case_id]));
    for (const caseId of new Set(named)) keys.push(runKeys.result(runId, caseId));
  }
  const lacking = new Map<string, CaseResult['judge_usage']>();
  for (const key of keys) {
    const bytes = await store.get(key);
    if (bytes === undefined) continue;
    const result = readJsonWith(caseResultSchema, bytes, key);
    if (judgeFailuresOf(result).length > 0) lacking.set(result.case_id, result.judge_usage);
  }
  return lacking;
}

/** A stored report.json, or undefined when there is none or it does not read as one (written by another version). */
function reportOf(bytes: Uint8Array | undefined): Report | undefined {
  if (bytes === undefined) return undefined;
  try {
    const parsed = reportSchema.safeParse(JSON.parse(new TextDecoder().decode(bytes)));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}
