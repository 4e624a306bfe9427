import type { ObjectStore } from '../ports/object-store.js';
import { readJsonWith } from '../schema/parse-json-with.js';
import type { Manifest } from '../schema/run-records.js';
import { manifestSchema } from '../schema/run-records.js';
import { reportSchema, type Report } from '../schema/report.js';
import { runKeys } from '../run/run-identity.js';
import { hasBatchState, readBatchState, type JobRecord } from '../batch-judging/batch-state.js';
import { waitingCaseIds } from '../batch-judging/waiting-cases.js';
import { isCanaryCaseId } from '../run/canary-keys.js';
import { terminalName } from '../report-render/terminal-text.js';
import { runDriver, type LeaseRecord } from './run-lease.js';
import { hostname } from 'node:os';

export interface RunStatus {
  readonly runId: string;
  /** Undefined while ingest has not claimed the run yet (or the id is wrong). */
  readonly manifest: Manifest | undefined;
  /** Ingest has sent every case message. */
  readonly ingested: boolean;
  readonly results: number;
  readonly failures: number;
  /** The report.json key once the reducer has written it. */
  readonly report: string | undefined;
  /** The report.json of a reported run. */
  readonly reported: Report | undefined;
  /** A batch-judged run's round, the cases waiting in it, and every job so far; undefined for a run judged online. */
  readonly batch?: { readonly round: number; readonly waiting: number; readonly jobs: readonly JobRecord[] } | undefined;
  /**
   * The command that drives a run not yet reported, from its lease, and
   * whether it still does; undefined when no such command ever drove it (a
   * deployed run) or when it is reported.
   */
  readonly driver?: { readonly holder: LeaseRecord; readonly holding: boolean } | undefined;
}

/**
 * Where a run stands, read from the store alone: no queue access needed. A
 * reported run's counts come from its report.json; a run still going lists
 * its results and failures (a run of a million cases lists a thousand pages).
 */
export async function runStatus(store: ObjectStore, runId: string, options: { readonly host?: string } = {}): Promise<RunStatus> {
  const manifestBytes = await store.get(runKeys.manifest(runId));
  const manifest = manifestBytes === undefined ? undefined : readJsonWith(manifestSchema, manifestBytes, runKeys.manifest(runId));
  const reportKey = manifest === undefined ? undefined : runKeys.report(manifest.suite, runId, 'report.json');
  const reportBytes = reportKey === undefined ? undefined : await store.get(reportKey);
  const ingested = (await store.get(runKeys.ingested(runId))) !== undefined;
  // A batch-judged run's jobs are shown reported or not: what each cost, and which of their lines could not be read.
  const batch = (await hasBatchState(store, runId)) ? await batchStatus(store, runId) : undefined;
  if (reportKey !== undefined && reportBytes !== undefined) {
    const reported = readJsonWith(reportSchema, reportBytes, reportKey);
    return {
      runId,
      manifest,
      ingested,
      results: reported.cases.evaluated,
      failures: reported.cases.failed,
      report: reportKey,
      reported,
      ...(batch === undefined ? {} : { batch }),
    };
  }
  // The canary's cases (config `canaries:`) are not among the manifest's cases.
  const count = async (prefix: string) => {
    let total = 0;
    for await (const key of store.list(prefix)) if (!isCanaryCaseId(key.slice(key.lastIndexOf('/') + 1))) total++;
    return total;
  };
  const driver = manifest === undefined ? undefined : await runDriver(store, runId, { host: options.host ?? hostname() });
  return {
    runId,
    manifest,
    ingested,
    results: await count(runKeys.resultsPrefix(runId)),
    failures: await count(runKeys.failuresPrefix(runId)),
    report: undefined,
    reported: undefined,
    ...(batch === undefined ? {} : { batch }),
    ...(driver === undefined ? {} : { driver }),
  };
}

async function batchStatus(store: ObjectStore, runId: string): Promise<NonNullable<RunStatus['batch']>> {
  const state = await readBatchState(store, runId);
  return { round: state.round, waiting: (await waitingCaseIds(store, runId, state.round)).length, jobs: state.jobs };
}

/**
 * The status in words; `finish` is the command that finishes the run here
 * (`assay resume RUN --store DIR`), said when nothing drives a run that is
 * not reported: the process that did was killed, or stopped on a failure.
 */
export function describeStatus(status: RunStatus, finish?: string): string {
  if (status.manifest === undefined) return `run ${status.runId}: not started yet (no manifest)`;
  const { manifest } = status;
  const pending = Math.max(0, manifest.cases - status.results - status.failures);
  const open = status.batch?.jobs.some((job) => job.round === status.batch?.round && !job.collected && job.phase !== 'failed') === true;
  const stopped = status.report === undefined && status.driver !== undefined && !status.driver.holding;
  const stage =
    status.report !== undefined
      ? `reported: ${status.report}`
      : open
        ? 'waiting for batch jobs'
        : stopped
          ? 'stopped'
          : status.ingested
            ? 'judging'
            : 'ingesting';
  const line = `run ${status.runId} (suite ${manifest.suite}, ${manifest.dataset.key}): ${manifest.cases} cases, ${status.results} evaluated, ${status.failures} failed, ${pending} pending; ${stage}${driverText(status, open, finish)}`;
  if (status.batch === undefined || status.batch.jobs.length === 0) return line;
  const waiting =
    status.batch.waiting === 0 || status.report !== undefined ? '' : `; ${status.batch.waiting} cases waiting for their answers`;
  const jobs = status.batch.jobs.map(
    (job) => `  batch job ${terminalName(job.provider_id ?? job.key)} (round ${job.round}, ${job.requests} requests): ${jobState(job)}`,
  );
  return [`${line}\nbatch round ${status.batch.round}${waiting}`, ...jobs].join('\n');
}

/**
 * A job as the provider last named its state, with its counts, the lines of
 * its files that were no answer, and a failed job's errors:
 * `completed, 219/219 done, 0 failed, answers collected, 2 lines unread (1 cut off, 1 not JSON)`.
 * The provider's words are stored redacted and shown escaped: a status or a
 * message never drives the terminal.
 */
export function jobState(job: JobRecord): string {
  const counts = job.counts === undefined ? '' : `, ${job.counts.completed}/${job.counts.total} done, ${job.counts.failed} failed`;
  const collected = job.collected && job.phase === 'finished' ? ', answers collected' : '';
  const unread = Object.entries(job.unread_lines ?? {});
  const unreadTotal = unread.reduce((sum, [, count]) => sum + count, 0);
  const unreadText =
    unreadTotal === 0
      ? ''
      : `, ${unreadTotal} line${unreadTotal === 1 ? '' : 's'} unread (${unread.map(([reason, count]) => `${count} ${reason}`).join(', ')})`;
  const errors =
    (job.phase === 'failed' || job.phase === 'finished') && job.errors !== undefined && job.errors.length > 0
      ? `: ${job.errors
          .slice(0, 3)
          .map((error) => `${error.line === undefined ? '' : `line ${error.line}: `}${error.code}: ${error.message}`)
          .join('; ')}`
      : '';
  return terminalName(`${job.state}${counts}${collected}${unreadText}${errors}`);
}

/**
 * Who drives a run not yet reported (`, driven by assay run (process 812 on
 * ci-7) since ...`), or that nothing does, why, and how to finish it (`: assay
 * run (process 812 on ci-7) is gone; finish it with: assay resume ...`). A
 * batch run's jobs go on at the provider without it, but nothing collects
 * their answers.
 */
function driverText(status: RunStatus, waitingForJobs: boolean, finish: string | undefined): string {
  const { driver } = status;
  if (driver === undefined || status.report !== undefined) return '';
  const { holder } = driver;
  const who = `${holder.command} (process ${holder.pid} on ${holder.host})`;
  if (driver.holding) return `, driven by ${who} since ${holder.acquired_at}`;
  const gone = holder.released ? 'let go of it before the report' : 'is gone';
  const next = finish === undefined ? '' : `; finish it with: ${finish}`;
  return waitingForJobs ? `, and nothing collects their answers: ${who} ${gone}${next}` : `: ${who} ${gone}${next}`;
}
