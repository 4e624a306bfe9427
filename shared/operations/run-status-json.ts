import { z } from 'zod';
import { jobRecordSchema } from '../batch-judging/batch-state.js';
import type { RunStatus } from './run-status.js';

const count = z.number().int().nonnegative();

/**
 * What `assay status RUN --json` prints (docs/deploy.md describes it): where
 * a run stands, read from the store. A run ingest has not claimed yet has no
 * manifest, so no suite and no case count: those are null.
 */
export const runStatusJsonSchema = z.object({
  run_id: z.string(),
  suite: z.string().nullable(),
  /** The manifest's case count. */
  cases: count.nullable(),
  /** Cases with a result. */
  evaluated: count,
  /** Cases with a failure recorded. */
  failed: count,
  /** Ingest has sent every case message. */
  ingested: z.boolean(),
  /** The report.json key once the reducer has written it. */
  report: z.string().nullable(),
  /** A batch-judged run's round, the cases waiting in it, and every job so far; absent for a run judged online. */
  batch: z
    .object({
      round: count,
      waiting: count,
      jobs: z.array(
        z.object({
          key: z.string(),
          /** The provider's id, once it has the job. */
          id: z.string().nullable(),
          round: count,
          requests: count,
          /** The provider's word for the job's state, as it came. */
          state: z.string(),
          counts: jobRecordSchema.shape.counts.unwrap().nullable(),
          collected: z.boolean(),
          /** Lines of its files that were no answer, by why. */
          unread_lines: z.record(z.string(), count),
        }),
      ),
    })
    .optional(),
  /**
   * The command that drives a run not yet reported, from the run's lease, and
   * whether it still does (false: its process is gone, or let go of the run
   * before the report; `assay resume` finishes it); absent for a reported
   * run and for one no such command drove (a deployed run).
   */
  driver: z.object({ command: z.string(), host: z.string(), pid: z.number().int(), since: z.string(), driving: z.boolean() }).optional(),
});
export type RunStatusJson = z.infer<typeof runStatusJsonSchema>;

export function runStatusJson(runId: string, status: RunStatus): RunStatusJson {
  return {
    run_id: runId,
    suite: status.manifest?.suite ?? null,
    cases: status.manifest?.cases ?? null,
    evaluated: status.results,
    failed: status.failures,
    ingested: status.ingested,
    report: status.report ?? null,
    ...(status.driver === undefined || status.report !== undefined
      ? {}
      : {
          driver: {
            command: status.driver.holder.command,
            host: status.driver.holder.host,
            pid: status.driver.holder.pid,
            since: status.driver.holder.acquired_at,
            driving: status.driver.holding,
          },
        }),
    ...(status.batch === undefined
      ? {}
      : {
          batch: {
            round: status.batch.round,
            waiting: status.batch.waiting,
            jobs: status.batch.jobs.map((job) => ({
              key: job.key,
              id: job.provider_id ?? null,
              round: job.round,
              requests: job.requests,
              state: job.state,
              counts: job.counts ?? null,
              collected: job.collected,
              unread_lines: job.unread_lines ?? {},
            })),
          },
        }),
  };
}
