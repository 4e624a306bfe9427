import type { BatchProvider } from '../batch-providers/batch-provider.js';
import { batchKeys } from '../schema/batch-request.js';
import type { BatchSettings } from '../judge-client/batch-settings.js';
import type { ObjectStore } from '../ports/object-store.js';
import { sendAll, type WorkQueue } from '../ports/work-queue.js';
import { runKeys } from '../run/run-identity.js';
import type { CaseFailure } from '../schema/run-records.js';
import { planJobs, type PlannedJob } from './batch-jobs.js';
import { uniqueRequests, type WaitingCase } from './waiting-cases.js';

/**
 * A provider's least number of requests a job (Amazon Bedrock's minimum
 * records per batch inference job, a quota of the model: 100 for most).
 * A round whose requests would make a job below it cannot go out in that
 * job: a second round of a few repair requests, a judge with a model of its
 * own and few requests, a small run. The cases that need a request of such a
 * job are taken out of the round; the rest go out in jobs as planned (taking
 * cases out may leave another job short, so the split is made again until
 * none is). The cases taken out are, by `judge.batch.below_minimum`:
 *
 * - `online` (the default): sent again, flagged to judge online what no job
 *   answered. The judge workers make those judgments with the online client,
 *   as `failed_lines: online` does: its rate governor, retries, deadline and
 *   cache, priced online. Nothing new is needed where the jobs are made (the
 *   reducer on AWS calls no model), and the answers a case already has from
 *   earlier jobs are still replayed.
 * - `refuse`: failed, each naming the minimum, so the run reports them as
 *   such (and `assay run` stops saying so).
 */
export interface MinimumSplit {
  /** The cases whose requests go out in `planned`. */
  readonly within: readonly WaitingCase[];
  readonly planned: readonly PlannedJob[];
  /** The cases that needed a request of a job below the minimum. */
  readonly below: readonly WaitingCase[];
  /** The largest job that was below it, for the message. */
  readonly shortest: number;
}

export function splitAtMinimum(
  cases: readonly WaitingCase[],
  answered: ReadonlySet<string>,
  provider: BatchProvider,
  maxRequestsPerJob: number | undefined,
): MinimumSplit {
  let within = [...cases];
  const below: WaitingCase[] = [];
  let shortest = 0;
  for (;;) {
    const planned = planJobs(
      uniqueRequests(within).filter((request) => !answered.has(request.id)),
      provider,
      maxRequestsPerJob,
    );
    const short = planned.filter((job) => job.ids.length < provider.limits.minRequests);
    if (short.length === 0) return { within, planned, below, shortest };
    shortest = Math.max(shortest, ...short.map((job) => job.ids.length));
    const shortIds = new Set(short.flatMap((job) => job.ids));
    const needsShort = (waiting: WaitingCase): boolean => waiting.requests.some((request) => shortIds.has(request.id));
    below.push(...within.filter(needsShort));
    within = within.filter((waiting) => !needsShort(waiting));
  }
}

/** Why the cases below the minimum were not sent in a job, with the setting that decides it. */
export function belowMinimumText(provider: BatchProvider, split: MinimumSplit): string {
  const cases = `${split.below.length} case${split.below.length === 1 ? '' : 's'}`;
  return `${cases} need requests that would make a batch job of ${split.shortest}, below the minimum of ${provider.limits.minRequests} records a job of ${provider.name} (judge.batch.bedrock.min_records_per_job)`;
}

/**
 * Sends the cases below the minimum to be judged online, or records them
 * as failed, by the setting; either way they wait for no job now, so their
 * waiting records go.
 */
export async function settleBelowMinimum(
  store: ObjectStore,
  cases: WorkQueue,
  runId: string,
  round: number,
  split: MinimumSplit,
  reason: string,
  belowMinimum: BatchSettings['belowMinimum'],
): Promise<void> {
  if (belowMinimum === 'online') {
    const messages = split.below.map((waiting) => ({ ...waiting.message, batch_round: round, judge_online: 'below_minimum' as const }));
    await sendAll(
      cases,
      messages.map((message, index) => ({ id: String(index % 10), body: JSON.stringify(message) })),
    );
  } else {
    for (const waiting of split.below) {
      const failure: CaseFailure = {
        run_id: runId,
        case_id: waiting.case_id,
        error: `${reason}, and judge.batch.below_minimum is refuse`,
        receive_count: 0,
        message: JSON.stringify(waiting.message),
      };
      await store.put(runKeys.failure(runId, waiting.case_id), JSON.stringify(failure));
    }
  }
  for (const waiting of split.below) await store.delete(batchKeys.waiting(runId, round, waiting.case_id));
}
