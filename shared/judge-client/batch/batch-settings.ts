import { z } from 'zod';
import { inputErrorLine } from '../../schema/input-error-line.js';

/**
 * `judge.batch` in the config file (or `assay run --batch`): the run's judge
 * requests go out in the provider's batch jobs, at the provider's batch price
 * (half the on-demand price at OpenAI, Azure OpenAI and Bedrock today), from a
 * quota of their own, answered within a day, instead of one request per
 * judgment. `true` takes every default:
 *
 * ```yaml
 * judge:
 *   batch:
 *     failed_lines: resubmit   # lines that failed or expired: once more in a new job; or online
 *     max_requests_per_job: 50000
 *     poll_seconds: 5          # the first wait before the jobs are looked at; then 1.5 times longer, up to 5 minutes
 * ```
 */
export const judgeBatchSchema = z.union([
  z.boolean(),
  z.strictObject({
    enabled: z.boolean().default(true),
    failed_lines: z.enum(['resubmit', 'online']).default('resubmit'),
    /** At most this many requests a job, below the provider's own limit. */
    max_requests_per_job: z.number().int().positive().optional(),
    /** The first wait before a job is looked at; each later wait is half as long again, up to five minutes. */
    poll_seconds: z.number().min(0.01).max(300).default(5),
  }),
]);
export type JudgeBatchSection = z.infer<typeof judgeBatchSchema>;

export interface BatchSettings {
  readonly failedLines: 'resubmit' | 'online';
  readonly maxRequestsPerJob: number | undefined;
  /** The first wait, in seconds, before the jobs are looked at. */
  readonly pollSeconds: number;
}

/** The batch settings of a config's `judge.batch`, or undefined when the run judges online. */
export function batchSettingsOf(section: JudgeBatchSection | undefined): BatchSettings | undefined {
  if (section === undefined || section === false) return undefined;
  if (section === true) return { failedLines: 'resubmit', maxRequestsPerJob: undefined, pollSeconds: 5 };
  if (!section.enabled) return undefined;
  return { failedLines: section.failed_lines, maxRequestsPerJob: section.max_requests_per_job, pollSeconds: section.poll_seconds };
}

export const BATCH_FIXES: Readonly<Record<string, string>> = {
  'judge.batch': 'write true, or an object with some of the keys enabled, failed_lines, max_requests_per_job, poll_seconds',
  'judge.batch.failed_lines': 'write resubmit (failed and expired lines go once more in a new job) or online (they are judged online)',
  'judge.batch.max_requests_per_job': 'give a whole number from 1, at most the provider\'s own limit',
  'judge.batch.poll_seconds': 'give the first wait before the jobs are looked at, in seconds, from 0.01 to 300 (default 5)',
};

/**
 * The least time a batch-judged run waits for its cases: the providers
 * promise an answer within 24 hours of a job's creation, and a run may need
 * a second round; an hour more for the cases to be judged around them.
 */
export const BATCH_RUN_SECONDS = 25 * 3600;

/** How long a run waits for its cases: `run.deadline_seconds`, and for a batch-judged run at least BATCH_RUN_SECONDS. */
export function runWaitSeconds(config: { readonly judge: { readonly batch?: JudgeBatchSection | undefined }; readonly run: { readonly deadline_seconds: number } }): number {
  return batchSettingsOf(config.judge.batch) === undefined ? config.run.deadline_seconds : Math.max(config.run.deadline_seconds, BATCH_RUN_SECONDS);
}

interface BatchCheckedSettings {
  readonly judge: { readonly provider?: string | undefined; readonly batch?: JudgeBatchSection | undefined };
  readonly judge_settings?: Readonly<Record<string, { readonly base_url?: string | undefined }>> | undefined;
  readonly custom_judges?: readonly { readonly id: string; readonly base_url?: string | undefined }[] | undefined;
  readonly dag_judges?: readonly { readonly id: string; readonly base_url?: string | undefined }[] | undefined;
}

/**
 * What batch judging cannot do with the rest of the file: a batch job goes
 * to one server, so no judge may have a server of its own; Amazon Bedrock's
 * jobs are not supported yet. Each problem is one line: the field, what is
 * wrong, the fix.
 */
export function checkBatchJudging(config: BatchCheckedSettings, file: string): string[] {
  if (batchSettingsOf(config.judge.batch) === undefined) return [];
  const problems: string[] = [];
  if (config.judge.provider === 'bedrock') {
    problems.push(inputErrorLine(file, '"judge.batch"', 'is not supported on Amazon Bedrock yet: batch jobs run on OpenAI and Azure OpenAI', 'remove judge.batch to judge online on Bedrock, or judge on OpenAI or Azure OpenAI'));
  }
  const ownServers = [
    ...Object.entries(config.judge_settings ?? {}).flatMap(([id, settings]) => (settings.base_url === undefined ? [] : [`"judge_settings.${id}.base_url"`])),
    ...(config.custom_judges ?? []).flatMap((judge, index) => (judge.base_url === undefined ? [] : [`"custom_judges[${index}].base_url" (judge "${judge.id}")`])),
    ...(config.dag_judges ?? []).flatMap((judge, index) => (judge.base_url === undefined ? [] : [`"dag_judges[${index}].base_url" (judge "${judge.id}")`])),
  ];
  for (const field of ownServers) {
    problems.push(inputErrorLine(file, field, 'is a server of its own, and a batch-judged run sends its jobs to one server', 'remove it (a judge may keep a model of its own), or remove judge.batch to judge online'));
  }
  return problems;
}
