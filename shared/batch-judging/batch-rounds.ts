import type { BatchProvider } from '../batch-providers/batch-provider.js';
import { batchKeys } from '../schema/batch-request.js';
import type { BatchSettings } from '../judge-client/batch-settings.js';
import type { ObjectStore } from '../ports/object-store.js';
import { sendAll, type WorkQueue } from '../ports/work-queue.js';
import { extendDeadline, runCompletion, type RunCompletion } from '../run/run-completion.js';
import { workersSpend } from '../run/judge-spend.js';
import { BatchProviderError } from '../batch-providers/batch-provider.js';
import { collectJob, createPlanned, pollJob, replaceJob, submitJobs } from './batch-jobs.js';
import { belowMinimumText, settleBelowMinimum, splitAtMinimum } from './batch-minimum.js';
import { readBatchState, writeBatchState, type BatchState, type JobRecord } from './batch-state.js';
import { readWaitingCase, uniqueRequests, waitingCaseIds, type WaitingCase } from './waiting-cases.js';
import type { JudgeCeiling } from '../run/judge-spend.js';
import { splitAtCeiling } from './batch-ceiling.js';
import type { CaseMessage } from '../schema/pipeline-messages.js';

/**
 * A batch-judged run goes in rounds. In a round, every case is judged as far
 * as the answers collected so far take it: it ends with a result (or a
 * failure), or as waiting for requests no job has answered
 * (waiting-cases.ts). Once every case has reported, the round's requests go
 * out in jobs; once the jobs have finished and their answers are stored, the
 * waiting cases are sent again, in the next round. A judgment needs a second
 * round only for a request it could not know before the first was answered
 * (a repair request, a lower output mode, a decision tree's next node, a line
 * sent again), so most runs take one or two.
 *
 * `advanceBatch` takes the run one step, from the store alone, wherever the
 * last step left it (a killed process, a Lambda that timed out): the local
 * drive calls it until the run is done, the deployed reducer at each check.
 */
export interface BatchDependencies {
  readonly store: ObjectStore;
  readonly cases: WorkQueue;
  readonly provider: BatchProvider;
  readonly settings: BatchSettings;
  readonly now: () => Date;
  /** run.max_judge_cost: no job is submitted that it does not cover. */
  readonly ceiling?: JudgeCeiling | undefined;
}

export type BatchStep =
  /** Cases of the round have not reported yet: `unreported` of them. */
  | { readonly kind: 'judging'; readonly unreported: number }
  /** Every case has a result or a failure: the report can be written. */
  | { readonly kind: 'done' }
  /** The round's jobs were created at the provider. */
  | { readonly kind: 'submitted'; readonly jobs: readonly JobRecord[] }
  /** Jobs of the round are still with the provider. */
  | { readonly kind: 'in-progress'; readonly jobs: readonly JobRecord[] }
  /** The round's answers are in (from `jobs`, as they finished), and its waiting cases were sent again. */
  | { readonly kind: 'requeued'; readonly cases: number; readonly round: number; readonly jobs: readonly JobRecord[] }
  /** A job of the round failed validation: nothing of it ran; the next step submits its requests again. */
  | { readonly kind: 'failed'; readonly jobs: readonly JobRecord[] }
  /**
   * Cases whose requests would make a job below the provider's minimum were
   * sent to be judged online (`online`) or failed (`refuse`), as
   * judge.batch.below_minimum says; the rest of the round goes out in jobs
   * once they have reported.
   */
  | { readonly kind: 'below-minimum'; readonly action: BatchSettings['belowMinimum']; readonly cases: number; readonly reason: string }
  /**
   * The provider did not answer a call of this step (`transient`: a 5xx, a
   * 429, a network error, a file it names not served yet, which the next step
   * tries again), or refused it for good (a revoked key). Whatever the step
   * did before is recorded; `giveUpAt` is when waiting out the outage stops
   * being worth it: the latest window of the round's open jobs, or the run's
   * deadline if sooner.
   */
  | {
      readonly kind: 'unreachable';
      readonly error: string;
      /**
       * Worth another look. False for a refusal for good, and for a provider
       * no connection could be made to before the run had any job there (a
       * wrong base URL, a server that is not running): waiting could last
       * the run's whole deadline for nothing.
       */
      readonly transient: boolean;
      /** No connection could be made to the provider, and no job of the run was created there yet. */
      readonly neverReached: boolean;
      readonly retryAfterMs: number | undefined;
      readonly giveUpAt: Date;
      /** When the provider first did not answer, in this outage (recorded in the run's batch state). */
      readonly since: Date;
      readonly jobs: readonly JobRecord[];
    };

/** A job's window when the provider never said: the 24 hours every provider gives a job from its creation. */
const JOB_WINDOW_MS = 24 * 3600 * 1000;

export async function advanceBatch(dependencies: BatchDependencies, runId: string): Promise<BatchStep> {
  const { store } = dependencies;
  const completion = await runCompletion(store, runId);
  try {
    const step = await advance(dependencies, runId, completion);
    // The provider answered: an outage recorded before is over.
    const answered = await readBatchState(store, runId);
    if (answered.unreachable_since !== undefined) {
      const { unreachable_since: _over, ...state } = answered;
      await writeBatchState(store, runId, state);
    }
    return step;
  } catch (error) {
    if (!(error instanceof BatchProviderError)) throw error;
    let state = await readBatchState(store, runId);
    if (state.unreachable_since === undefined) {
      state = { ...state, unreachable_since: dependencies.now().toISOString() };
      await writeBatchState(store, runId, state);
    }
    const open = state.jobs.filter((job) => job.round === state.round && !job.collected && job.phase !== 'failed');
    const windows = open.map((job) =>
      job.expires_at !== undefined
        ? Date.parse(job.expires_at)
        : job.created_at !== undefined
          ? Date.parse(job.created_at) + JOB_WINDOW_MS
          : completion.deadline.getTime(),
    );
    const giveUpAt = new Date(
      Math.min(completion.deadline.getTime(), windows.length === 0 ? Number.POSITIVE_INFINITY : Math.max(...windows)),
    );
    const neverReached = error.cannotReach && state.jobs.every((job) => job.provider_id === undefined);
    return {
      kind: 'unreachable',
      error: error.message,
      transient: error.transient && !neverReached,
      neverReached,
      retryAfterMs: error.retryAfterMs,
      giveUpAt,
      since: new Date(state.unreachable_since ?? dependencies.now().toISOString()),
      jobs: open,
    };
  }
}

async function advance(dependencies: BatchDependencies, runId: string, completion: RunCompletion): Promise<BatchStep> {
  const { store } = dependencies;
  let state = await readBatchState(store, runId);
  const waiting = new Set(await waitingCaseIds(store, runId, state.round));
  const unreported = completion.unfinished.filter((caseId) => !waiting.has(caseId)).length;
  if (unreported > 0) return { kind: 'judging', unreported };
  if (waiting.size === 0 || completion.unfinished.length === 0) return { kind: 'done' };
  const round = state.jobs.filter((job) => job.round === state.round && job.phase !== 'failed');
  if (round.length === 0) {
    let cases = await Promise.all(completion.unfinished.map((caseId) => readWaitingCase(store, runId, state.round, caseId)));
    const answered = await answeredRequests(store, runId, cases);
    let estimates: number[] | undefined;
    if (dependencies.ceiling !== undefined) {
      // What the run has spent online so far (fallbacks, rounds below a job's minimum) counts against the ceiling too.
      const jobsCost = state.jobs.reduce((sum, job) => sum + (job.phase === 'failed' ? 0 : (job.estimated_cost ?? 0)), 0);
      const committed = jobsCost + (await workersSpend(store, runId));
      const split = splitAtCeiling(cases, dependencies.ceiling, committed, answered);
      // Past the ceiling a case is still evaluated, by its ground truth and deterministic judges, as online.
      await sendCases(
        dependencies.cases,
        split.over.map((waiting) => ({ ...waiting.message, batch_round: state.round, skip_judges: 'max_judge_cost' as const })),
      );
      // They wait for no job now: until their results are in, the round waits for them as for any case being judged.
      for (const waiting of split.over) await store.delete(batchKeys.waiting(runId, state.round, waiting.case_id));
      cases = [...split.within];
      estimates = [split.estimate];
    }
    const split = splitAtMinimum(cases, answered, dependencies.provider, dependencies.settings.maxRequestsPerJob);
    if (split.below.length > 0) {
      // Settled first, on their own: the round's jobs go out from its next step, once these cases have reported.
      const reason = belowMinimumText(dependencies.provider, split);
      await settleBelowMinimum(store, dependencies.cases, runId, state.round, split, reason, dependencies.settings.belowMinimum);
      return { kind: 'below-minimum', action: dependencies.settings.belowMinimum, cases: split.below.length, reason };
    }
    const { planned } = split;
    const requests = planned.reduce((sum, job) => sum + job.ids.length, 0);
    // Every request already has its answer (a step that died after collecting, before sending the cases again).
    if (requests === 0)
      return requeue(
        dependencies,
        runId,
        state,
        cases.map((waiting) => waiting.case_id),
      );
    const perJob = estimates === undefined ? undefined : planned.map((job) => ((estimates?.[0] ?? 0) * job.ids.length) / requests);
    // The new jobs have their day from now: the run waits for them (a first round's jobs are within the deadline ingest set).
    if (state.round > 0) await extendDeadline(store, completion.manifest, dependencies.now());
    state = await submitJobs(store, dependencies.provider, runId, state, planned, dependencies.now, perJob);
    return { kind: 'submitted', jobs: state.jobs.filter((job) => job.round === state.round && job.phase !== 'failed') };
  }
  if (round.some((job) => job.provider_id === undefined))
    state = await createPlanned(store, dependencies.provider, runId, state, dependencies.now);
  state = await pollAndCollect(dependencies, runId, state);
  const jobs = state.jobs.filter((job) => job.round === state.round);
  const failed = jobs.filter((job) => job.phase === 'failed' && job.finished_at !== undefined && !job.collected);
  if (failed.length > 0) {
    // Acknowledged, so that the next step submits the requests again in a new job.
    for (const job of failed) state = replaceJob(state, { ...job, collected: true });
    await writeBatchState(store, runId, state);
    return { kind: 'failed', jobs: failed };
  }
  const open = jobs.filter((job) => job.phase !== 'failed' && !job.collected);
  if (open.length > 0) return { kind: 'in-progress', jobs: open };
  return requeue(dependencies, runId, state, completion.unfinished);
}

/**
 * Sends the round's waiting cases again, for the next round, then moves the
 * state on. A process that dies in between sends them again next time:
 * a case delivered twice writes one result.
 */
async function requeue(
  dependencies: BatchDependencies,
  runId: string,
  state: BatchState,
  unfinished: readonly string[],
): Promise<BatchStep> {
  const cases = await requeueWaiting(dependencies, runId, state.round, unfinished);
  await writeBatchState(dependencies.store, runId, { ...state, round: state.round + 1 });
  const jobs = state.jobs.filter((job) => job.round === state.round && job.phase === 'finished');
  return { kind: 'requeued', cases, round: state.round + 1, jobs };
}

/** Polls the round's jobs still with the provider, and collects those that finished. */
async function pollAndCollect(dependencies: BatchDependencies, runId: string, state: BatchState): Promise<BatchState> {
  let current = state;
  for (const job of state.jobs.filter(
    (candidate) => candidate.round === state.round && !candidate.collected && candidate.phase !== 'failed',
  )) {
    let polled = await pollJob(dependencies.provider, job, dependencies.now);
    if (polled.phase === 'finished') polled = await collectJob(dependencies.store, dependencies.provider, runId, polled);
    current = replaceJob(current, polled);
    await writeBatchState(dependencies.store, runId, current);
  }
  return current;
}

/** The ids of the cases' requests that already have an answer (a step that died between collecting and sending the cases again). */
async function answeredRequests(store: ObjectStore, runId: string, cases: readonly WaitingCase[]): Promise<Set<string>> {
  const answered = new Set<string>();
  for (const request of uniqueRequests(cases))
    if ((await store.get(batchKeys.answer(runId, request.id))) !== undefined) answered.add(request.id);
  return answered;
}

async function sendCases(queue: WorkQueue, messages: readonly CaseMessage[]): Promise<void> {
  await sendAll(
    queue,
    messages.map((message, index) => ({ id: String(index % 10), body: JSON.stringify(message) })),
  );
}

/** Sends the round's waiting cases again, for the next round. */
async function requeueWaiting(
  dependencies: BatchDependencies,
  runId: string,
  round: number,
  unfinished: readonly string[],
): Promise<number> {
  const messages: CaseMessage[] = [];
  for (const caseId of unfinished) {
    // A case goes online for the round it was flagged in only: the next round's requests may well fill a job.
    const { judge_online: _online, ...message } = (await readWaitingCase(dependencies.store, runId, round, caseId)).message;
    messages.push({ ...message, batch_round: round + 1 });
  }
  await sendCases(dependencies.cases, messages);
  return messages.length;
}
