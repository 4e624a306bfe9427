import { z } from 'zod';
import { inputErrorLine } from '../schema/input-error-line.js';

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
 *     unanswered_lines: online # lines the resubmission did not run either: judged online; or fail (their judgments fail their cases)
 *     below_minimum: online    # fewer requests than the provider's least per job (Bedrock): online, or refuse
 *     max_requests_per_job: 50000
 *     poll_seconds: 5          # the first wait before the jobs are looked at; then 1.5 times longer, up to 5 minutes
 *     bedrock:                 # Amazon Bedrock only: where its jobs read and write, and the role they run as
 *       s3_uri: s3://my-bucket/assay
 *       role_arn: arn:aws:iam::123456789012:role/assay-bedrock-batch
 *       min_records_per_job: 100
 * ```
 */
/** Bedrock's minimum records per batch inference job for most models (a quota of the account and model). */
export const DEFAULT_MIN_RECORDS_PER_JOB = 100;

export const bedrockBatchSchema = z.strictObject({
  /** The S3 location the jobs' input and output go under (`<s3_uri>/runs/<run>/batch/bedrock/<job>/`). */
  s3_uri: z
    .string()
    .regex(/^s3:\/\/[a-z0-9][a-z0-9.-]{1,61}[a-z0-9](\/.*)?$/, 'expected an S3 URI such as s3://my-bucket/assay')
    .optional(),
  /** The service role Bedrock assumes to read the input and write the output. */
  role_arn: z
    .string()
    .regex(
      /^arn:aws[a-z-]*:iam::\d{12}:role\/[\w+=,.@/-]+$/,
      'expected an IAM role ARN such as arn:aws:iam::123456789012:role/assay-bedrock-batch',
    )
    .optional(),
  /** Bedrock's quota "minimum number of records per batch inference job" for the model (100 for most models). */
  min_records_per_job: z.number().int().positive().default(DEFAULT_MIN_RECORDS_PER_JOB),
});
export type BedrockBatchSection = z.infer<typeof bedrockBatchSchema>;

export const judgeBatchSchema = z.union([
  z.boolean(),
  z.strictObject({
    enabled: z.boolean().default(true),
    failed_lines: z.enum(['resubmit', 'online']).default('resubmit'),
    /**
     * A line the one resubmission did not run either (the provider is behind
     * for a second day): judged online, so a nightly run still ends with every
     * judgment, at the online price for those few; or `fail`: that judgment
     * fails its case, as the report and --max-failed count it.
     */
    unanswered_lines: z.enum(['online', 'fail']).default('online'),
    /** A round whose requests would make a job below the provider's minimum: judge its cases online, or refuse them. */
    below_minimum: z.enum(['online', 'refuse']).default('online'),
    /** At most this many requests a job, below the provider's own limit. */
    max_requests_per_job: z.number().int().positive().optional(),
    /** The first wait before a job is looked at; each later wait is half as long again, up to five minutes. */
    poll_seconds: z.number().min(0.01).max(300).default(5),
    bedrock: bedrockBatchSchema.optional(),
  }),
]);
export type JudgeBatchSection = z.infer<typeof judgeBatchSchema>;

export interface BatchSettings {
  readonly failedLines: 'resubmit' | 'online';
  readonly unansweredLines: 'online' | 'fail';
  readonly belowMinimum: 'online' | 'refuse';
  readonly maxRequestsPerJob: number | undefined;
  /** The first wait, in seconds, before the jobs are looked at. */
  readonly pollSeconds: number;
  /** judge.batch.bedrock, as given (the stack's environment may give the location and the role instead). */
  readonly bedrock: BedrockBatchSection | undefined;
}

/** The batch settings of a config's `judge.batch`, or undefined when the run judges online. */
export function batchSettingsOf(section: JudgeBatchSection | undefined): BatchSettings | undefined {
  if (section === undefined || section === false) return undefined;
  if (section === true)
    return {
      failedLines: 'resubmit',
      unansweredLines: 'online',
      belowMinimum: 'online',
      maxRequestsPerJob: undefined,
      pollSeconds: 5,
      bedrock: undefined,
    };
  if (!section.enabled) return undefined;
  return {
    failedLines: section.failed_lines,
    unansweredLines: section.unanswered_lines,
    belowMinimum: section.below_minimum,
    maxRequestsPerJob: section.max_requests_per_job,
    pollSeconds: section.poll_seconds,
    bedrock: section.bedrock,
  };
}

export const BATCH_FIXES: Readonly<Record<string, string>> = {
  'judge.batch':
    'write true, or an object with some of the keys enabled, failed_lines, unanswered_lines, below_minimum, max_requests_per_job, poll_seconds, bedrock',
  'judge.batch.failed_lines': 'write resubmit (failed and expired lines go once more in a new job) or online (they are judged online)',
  'judge.batch.unanswered_lines':
    'write online (lines the resubmission did not run either are judged online) or fail (their judgments fail their cases)',
  'judge.batch.below_minimum':
    "write online (the cases whose requests would make a job below the provider's minimum are judged online) or refuse (they fail, naming the minimum)",
  'judge.batch.bedrock':
    'write an object with s3_uri and role_arn (and min_records_per_job, optional), e.g. {s3_uri: s3://my-bucket/assay, role_arn: arn:aws:iam::123456789012:role/assay-bedrock-batch}',
  'judge.batch.bedrock.s3_uri': 'give the S3 location the jobs read and write under, e.g. s3://my-bucket/assay',
  'judge.batch.bedrock.role_arn':
    'give the ARN of the service role Bedrock assumes for the jobs (trusted by bedrock.amazonaws.com, with read and write under s3_uri)',
  'judge.batch.bedrock.min_records_per_job':
    "give Bedrock's minimum number of records per batch inference job for the model, a whole number from 1 (default 100)",
  'judge.batch.max_requests_per_job': "give a whole number from 1, at most the provider's own limit",
  'judge.batch.poll_seconds': 'give the first wait before the jobs are looked at, in seconds, from 0.01 to 300 (default 5)',
};

/**
 * The least time a batch-judged run waits for its cases: the providers
 * promise an answer within 24 hours of a job's creation, and a run may need
 * a second round; an hour more for the cases to be judged around them.
 */
export const BATCH_RUN_SECONDS = 25 * 3600;

/** How long a run waits for its cases: `run.deadline_seconds`, and for a batch-judged run at least BATCH_RUN_SECONDS. */
export function runWaitSeconds(config: {
  readonly judge: { readonly batch?: JudgeBatchSection | undefined };
  readonly run: { readonly deadline_seconds: number };
}): number {
  return batchSettingsOf(config.judge.batch) === undefined
    ? config.run.deadline_seconds
    : Math.max(config.run.deadline_seconds, BATCH_RUN_SECONDS);
}

interface BatchCheckedSettings {
  readonly judge: { readonly provider?: string | undefined; readonly batch?: JudgeBatchSection | undefined };
  readonly judge_settings?: Readonly<Record<string, { readonly base_url?: string | undefined }>> | undefined;
  readonly custom_judges?: readonly { readonly id: string; readonly base_url?: string | undefined }[] | undefined;
  readonly dag_judges?: readonly { readonly id: string; readonly base_url?: string | undefined }[] | undefined;
}

/**
 * What batch judging cannot do with the rest of the file: a batch job goes
 * to one server, so no judge may have a server of its own; the Bedrock block
 * means nothing under a provider the file names as another. Each problem is
 * one line: the field, what is wrong, the fix.
 */
export function checkBatchJudging(config: BatchCheckedSettings, file: string): string[] {
  const settings = batchSettingsOf(config.judge.batch);
  if (settings === undefined) return [];
  const problems: string[] = [];
  // An unnamed provider may be Bedrock by the environment (ASSAY_JUDGE_PROVIDER, a deployed stack's): only a named other one is wrong.
  if (settings.bedrock !== undefined && config.judge.provider !== undefined && config.judge.provider !== 'bedrock') {
    problems.push(
      inputErrorLine(
        file,
        '"judge.batch.bedrock"',
        `applies only with provider bedrock, and the provider is ${config.judge.provider}`,
        'add provider: bedrock, or remove judge.batch.bedrock',
      ),
    );
  }
  const ownServers = [
    ...Object.entries(config.judge_settings ?? {}).flatMap(([id, settings]) =>
      settings.base_url === undefined ? [] : [`"judge_settings.${id}.base_url"`],
    ),
    ...(config.custom_judges ?? []).flatMap((judge, index) =>
      judge.base_url === undefined ? [] : [`"custom_judges[${index}].base_url" (judge "${judge.id}")`],
    ),
    ...(config.dag_judges ?? []).flatMap((judge, index) =>
      judge.base_url === undefined ? [] : [`"dag_judges[${index}].base_url" (judge "${judge.id}")`],
    ),
  ];
  for (const field of ownServers) {
    problems.push(
      inputErrorLine(
        file,
        field,
        'is a server of its own, and a batch-judged run sends its jobs to one server',
        'remove it (a judge may keep a model of its own), or remove judge.batch to judge online',
      ),
    );
  }
  return problems;
}
