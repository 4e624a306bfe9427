import type { BatchStep } from '../../shared/batch-judging/batch-rounds.js';
import type { JobRecord } from '../../shared/batch-judging/batch-state.js';
import type { BatchEnding } from '../../shared/reduce/reduce.js';
import { EXIT_FAILED } from '../failure-message.js';
import { UsageError } from '../usage-error.js';

/**
 * What a step of a batch-judged run's rounds says on the progress line's
 * stream: the jobs submitted, each look at them (the provider's state as it
 * named it, requests done and failed of the total from its own counts, time
 * since submission), the round's cases sent again. Judging steps say nothing:
 * the progress line counts the cases.
 */
export function batchStepText(step: BatchStep, now: Date): string | undefined {
  switch (step.kind) {
    case 'submitted':
      return `batch: ${plural(step.jobs.length, 'job')} submitted (${plural(
        sum(step.jobs, (job) => job.requests),
        'request',
      )}): ${step.jobs.map((job) => job.provider_id ?? job.key).join(', ')}`;
    case 'in-progress':
      return `batch: ${step.jobs.map((job) => jobText(job, now)).join('; ')}`;
    case 'requeued': {
      const from = step.jobs.length === 0 ? '' : ` from ${step.jobs.map((job) => jobText(job, now)).join('; ')}`;
      return `batch: answers collected${from}; ${plural(step.cases, 'case')} judged again from them (round ${step.round})`;
    }
    case 'failed':
      return `batch: ${step.jobs.map((job) => `job ${job.provider_id ?? job.key} failed validation: ${errorsText(job)}`).join('; ')}`;
    case 'below-minimum':
      return step.action === 'online' ? `batch: ${step.reason}; they are judged online` : `batch: ${batchRefusedText(step)}`;
    case 'unreachable':
      return step.transient
        ? `batch: the provider did not answer (${step.error}); looked at again, until ${step.giveUpAt.toISOString()}`
        : `batch: the provider refused (${step.error})`;
    case 'judging':
    case 'done':
      return undefined;
  }
}

function jobText(job: JobRecord, now: Date): string {
  const counts =
    job.counts === undefined ? `${job.requests} requests` : `${job.counts.completed}/${job.counts.total} done, ${job.counts.failed} failed`;
  const elapsed = job.created_at === undefined ? '' : `, ${duration(now.getTime() - Date.parse(job.created_at))}`;
  const unread = unreadText(job);
  return `${job.provider_id ?? job.key} ${job.state}, ${counts}${unread === undefined ? '' : `, ${unread}`}${elapsed}`;
}

/** The lines of a collected job that were no answer, by why: `2 lines unread (1 not JSON, 1 cut off), sent again`. */
export function unreadText(job: JobRecord): string | undefined {
  const counts = Object.entries(job.unread_lines ?? {});
  if (counts.length === 0) return undefined;
  const total = counts.reduce((sum, [, count]) => sum + count, 0);
  return `${plural(total, 'line')} unread (${counts.map(([reason, count]) => `${count} ${reason}`).join(', ')}), their requests sent again`;
}

/** The provider's errors of a job that failed validation: line, code and message of each (the first five). */
export function errorsText(job: JobRecord): string {
  const errors = job.errors ?? [];
  if (errors.length === 0) return `${job.state}, with no error named`;
  const shown = errors
    .slice(0, 5)
    .map((error) => `${error.line === undefined ? '' : `line ${error.line}: `}${error.code}: ${error.message}`);
  return `${shown.join('; ')}${errors.length > 5 ? `; and ${errors.length - 5} more` : ''}`;
}

function duration(milliseconds: number): string {
  const seconds = Math.max(0, Math.round(milliseconds / 1000));
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  return `${hours > 0 ? `${hours}h` : ''}${minutes > 0 || hours > 0 ? `${minutes}m` : ''}${seconds % 60}s elapsed`;
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

function sum(jobs: readonly JobRecord[], pick: (job: JobRecord) => number): number {
  return jobs.reduce((total, job) => total + pick(job), 0);
}

/**
 * The provider refused a call for good, or did not answer for longer than
 * its jobs' window and the run's deadline allow: one line, with how to go on.
 */
export function batchUnreachableText(step: Extract<BatchStep, { kind: 'unreachable' }>): string {
  if (step.neverReached)
    return `the batch provider could not be reached (${step.error}); check OPENAI_BASE_URL (or the config's judge base_url, azure or bedrock settings) and that the server is running; nothing was lost`;
  if (!step.transient) return `the batch provider refused a call (${step.error}); nothing was lost`;
  return `the batch provider has not answered since ${step.since.toISOString()} (the last: ${step.error}), and its jobs' window or the run's deadline has passed; nothing was lost`;
}

/**
 * The one line, and exit 1, a command (run, resume, redrive) ends with when
 * its run cannot go on by itself: what stopped it, and `finish`, the command
 * that takes it further.
 */
export function stoppedRunError(ending: BatchEnding, finish: string): UsageError {
  switch (ending.kind) {
    case 'failed':
      return new UsageError(`${batchFailedText(ending)}. The run can go on: ${finish} submits its requests again`, EXIT_FAILED);
    case 'below-minimum':
      return new UsageError(`${batchRefusedText(ending)}. The run can go on: ${finish} reports it with them`, EXIT_FAILED);
    case 'unreachable': {
      const next = ending.neverReached ? 'submits its requests' : 'looks at its jobs again';
      return new UsageError(`${batchUnreachableText(ending)}. The run can go on: ${finish} ${next}`, EXIT_FAILED);
    }
  }
}

/** Jobs that failed validation, with the provider's errors: nothing of them ran or was paid for. */
export function batchFailedText(step: Extract<BatchStep, { kind: 'failed' }>): string {
  const jobs = step.jobs.map((job) => `batch job ${job.provider_id ?? job.key} failed validation: ${errorsText(job)}`).join('; ');
  return `${jobs}; nothing of it ran or was paid for`;
}

/** Cases refused for a round below the provider's minimum a job (judge.batch.below_minimum: refuse): recorded as failed. */
export function batchRefusedText(step: Extract<BatchStep, { kind: 'below-minimum' }>): string {
  return `${step.reason}, and judge.batch.below_minimum is refuse: they are recorded as failed (below_minimum: online judges such cases online)`;
}
