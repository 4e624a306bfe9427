import {
  BedrockClient,
  ConflictException,
  CreateModelInvocationJobCommand,
  GetModelInvocationJobCommand,
  ListModelInvocationJobsCommand,
  StopModelInvocationJobCommand,
} from '@aws-sdk/client-bedrock';
import { GetObjectCommand, NoSuchKey, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { z } from 'zod';
import { quietNodeVersionNotice } from '../ports/aws-node-notice.js';
import { rememberSecret, scrubSecrets } from '../secrets/scrub-secrets.js';
import type { BatchRequest } from '../schema/batch-request.js';
import {
  BatchProviderError,
  type BatchJobStatus,
  type BatchLimits,
  type BatchPhase,
  type BatchProvider,
  type CreatedJob,
} from './batch-provider.js';
import { awsCall, httpStatusOf } from './aws-batch-errors.js';
import { INPUT_FILE, jobFolder, jobIdOf, manifestSchema, readOutputLine, s3LocationOf, s3ObjectOf, s3Uri } from './bedrock-batch-files.js';
import { resultLines } from './result-lines.js';

/**
 * Amazon Bedrock's batch inference, through @aws-sdk/client-bedrock: the
 * input uploaded to S3 under the run's prefix, a model invocation job of the
 * Converse type created from it (every record's modelInput is the Converse
 * body the online judge sends, forced tool and inference settings included),
 * named by the job's key, with the key as its idempotency token too; the
 * output read back from S3 by recordId. A job a process created and died
 * before recording is found again by its name (ListModelInvocationJobs),
 * and a create that meets the name taken (ConflictException) takes that job.
 */
export interface BedrockBatchTarget {
  readonly region: string;
  /** Where the jobs' files go: `<s3Uri>/runs/<run>/batch/bedrock/<job>/`. */
  readonly s3Uri: string;
  /** The service role Bedrock assumes to read and write them. */
  readonly roleArn: string;
  /** Bedrock's minimum records per job for the model (a quota; 100 for most models). */
  readonly minRecordsPerJob: number;
}

/** Bedrock's default quotas: 50,000 records per job, an input file of 1 GB. */
const MAX_RECORDS = 50_000;
const MAX_BYTES = 1024 * 1024 * 1024;
/** Bedrock's rule for job names, which the job keys (`r-<16 hex>-r<round>-j<index>`) keep. */
const JOB_NAME = /^[a-zA-Z0-9]{1,63}(-*[a-zA-Z0-9+\-.]){0,63}$/;

/** Bedrock's states, compared in lower case; an unknown state is taken as still running, and shown as it came. */
const PHASES: Readonly<Record<string, BatchPhase>> = {
  submitted: 'pending',
  validating: 'pending',
  scheduled: 'pending',
  inprogress: 'running',
  stopping: 'running',
  completed: 'finished',
  partiallycompleted: 'finished',
  stopped: 'finished',
  expired: 'finished',
  failed: 'failed',
};
/** The states in which Bedrock has written a job's output and manifest. */
const WRITES_OUTPUT: ReadonlySet<string> = new Set(['completed', 'partiallycompleted']);

const counted = z.number().int().nonnegative().optional();
/** What is read of GetModelInvocationJob's answer. */
const jobSchema = z.looseObject({
  jobArn: z.string(),
  status: z.string(),
  message: z.string().optional(),
  outputDataConfig: z.looseObject({ s3OutputDataConfig: z.looseObject({ s3Uri: z.string() }) }),
  inputDataConfig: z.looseObject({ s3InputDataConfig: z.looseObject({ s3Uri: z.string() }) }),
  totalRecordCount: counted,
  successRecordCount: counted,
  errorRecordCount: counted,
  jobExpirationTime: z.date().optional(),
});
type Job = z.infer<typeof jobSchema>;
const summariesSchema = z.looseObject({
  nextToken: z.string().optional(),
  invocationJobSummaries: z.array(z.looseObject({ jobArn: z.string(), jobName: z.string() })).optional(),
});

export function bedrockBatchProvider(target: BedrockBatchTarget): BatchProvider {
  quietNodeVersionNotice();
  const bedrock = new BedrockClient({ region: target.region });
  const s3 = new S3Client({ region: target.region });
  const location = s3LocationOf(target.s3Uri);
  const limits: BatchLimits = { maxRequests: MAX_RECORDS, maxBytes: MAX_BYTES, minRequests: target.minRecordsPerJob };
  let remembered: Promise<void> | undefined;
  /** The credentials the clients sign with, removed from every provider text kept or shown (a gateway may echo the access key). */
  const rememberCredentials = (): Promise<void> =>
    (remembered ??= (async () => {
      const credentials = await bedrock.config.credentials().catch(() => undefined);
      rememberSecret(credentials?.accessKeyId);
      rememberSecret(credentials?.secretAccessKey);
      rememberSecret(credentials?.sessionToken);
    })());

  async function find(key: string): Promise<CreatedJob | undefined> {
    await rememberCredentials();
    let nextToken: string | undefined;
    do {
      const token = nextToken;
      const page = summariesSchema.parse(
        await awsCall(() =>
          bedrock.send(
            new ListModelInvocationJobsCommand({
              nameContains: key,
              sortBy: 'CreationTime',
              sortOrder: 'Descending',
              ...(token === undefined ? {} : { nextToken: token }),
            }),
          ),
        ),
      );
      const found = page.invocationJobSummaries?.find((job) => job.jobName === key);
      if (found !== undefined) return { id: found.jobArn };
      nextToken = page.nextToken;
    } while (nextToken !== undefined);
    return undefined;
  }

  async function job(jobArn: string): Promise<Job> {
    return jobSchema.parse(await awsCall(() => bedrock.send(new GetModelInvocationJobCommand({ jobIdentifier: jobArn }))));
  }

  /** An object's text, or undefined when there is none (a job stopped before it wrote its output). */
  async function text(uri: string): Promise<string | undefined> {
    const { bucket, key } = s3ObjectOf(uri);
    return awsCall(async () => {
      try {
        const object = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
        return await object.Body?.transformToString('utf8');
      } catch (error) {
        if (error instanceof NoSuchKey || httpStatusOf(error) === 404) return undefined;
        throw error;
      }
    });
  }

  /**
   * The output of a finished job. Bedrock writes a Completed or
   * PartiallyCompleted job's output and manifest as it finishes: either
   * missing then is storage not serving it yet, a transient failure looked at
   * again, never a job that answered nothing. A job stopped or expired early
   * may have written none.
   */
  async function outputText(found: Job, name: string): Promise<string | undefined> {
    const read = await text(`${outputOf(found)}${name}`);
    if (read === undefined && WRITES_OUTPUT.has(found.status.toLowerCase()))
      throw new BatchProviderError(`the output ${name} of ${found.status} job ${jobIdOf(found.jobArn)} is not in S3 yet`, true);
    return read;
  }

  /** Creates the job, or takes the one of its name: a create that meets the name taken is this job, made by a process that died before it recorded the id. */
  async function createJob(key: string, folder: string, model: string): Promise<CreatedJob> {
    const created = await awsCall(async () => {
      try {
        return await bedrock.send(
          new CreateModelInvocationJobCommand({
            jobName: key,
            clientRequestToken: key,
            roleArn: target.roleArn,
            modelId: model,
            modelInvocationType: 'Converse',
            inputDataConfig: { s3InputDataConfig: { s3Uri: s3Uri(location.bucket, `${folder}${INPUT_FILE}`), s3InputFormat: 'JSONL' } },
            outputDataConfig: { s3OutputDataConfig: { s3Uri: s3Uri(location.bucket, `${folder}output/`) } },
          }),
        );
      } catch (error) {
        if (error instanceof ConflictException) return undefined;
        throw error;
      }
    });
    if (created !== undefined) return { id: z.object({ jobArn: z.string().min(1) }).parse(created).jobArn };
    const existing = await find(key);
    if (existing === undefined)
      throw new BatchProviderError(`Bedrock says the job name ${key} is taken, yet lists no job of that name`, false);
    return existing;
  }

  /** Where a job wrote its files: `<output location>/<job id>/`. */
  const outputOf = (found: Job): string =>
    `${found.outputDataConfig.s3OutputDataConfig.s3Uri.replace(/\/+$/, '')}/${jobIdOf(found.jobArn)}/`;

  return {
    name: `Amazon Bedrock batch inference (${target.region})`,
    limits,
    line: (request: BatchRequest) => {
      // The request names its model (bedrock-batch-completer.ts); the record is the Converse body alone, the job names the model.
      const { modelId: _model, ...modelInput } = request.body;
      return JSON.stringify({ recordId: request.id, modelInput });
    },
    find,
    async create(key, input, { runId, model }) {
      if (!JOB_NAME.test(key))
        throw new Error(`The batch job key ${key} is no Bedrock job name (letters, digits and hyphens, at most 63 characters)`);
      await rememberCredentials();
      const folder = jobFolder(location, runId, key);
      await awsCall(() =>
        s3.send(
          new PutObjectCommand({ Bucket: location.bucket, Key: `${folder}${INPUT_FILE}`, Body: input, ContentType: 'application/jsonl' }),
        ),
      );
      return createJob(key, folder, model);
    },
    async status(jobArn) {
      await rememberCredentials();
      const found = await job(jobArn);
      return statusOf(found, PHASES[found.status.toLowerCase()] === 'finished' ? await outputText(found, 'manifest.json.out') : undefined);
    },
    async *answers(jobArn) {
      await rememberCredentials();
      const found = await job(jobArn);
      const inputName = found.inputDataConfig.s3InputDataConfig.s3Uri.split('/').at(-1) ?? INPUT_FILE;
      yield* resultLines((await outputText(found, `${inputName}.out`)) ?? '', readOutputLine);
    },
    async cancel(jobArn) {
      await awsCall(() => bedrock.send(new StopModelInvocationJobCommand({ jobIdentifier: jobArn })));
    },
  };
}

/** The job as the rounds see it: its counts from the job, else from a finished job's manifest; a failed job's message as its error; its texts redacted. */
function statusOf(found: Job, manifestText: string | undefined): BatchJobStatus {
  const named = PHASES[found.status.toLowerCase()] ?? 'running';
  const manifest = manifestOf(manifestText);
  const total = found.totalRecordCount ?? manifest?.totalRecordCount;
  const completed = found.successRecordCount ?? manifest?.successRecordCount;
  const failed = found.errorRecordCount ?? manifest?.errorRecordCount;
  const counts = total === undefined || completed === undefined ? undefined : { total, completed, failed: failed ?? 0 };
  // A job that failed after some of its records ran (not in validation) has answers to keep, as a stopped one has.
  const phase = named === 'failed' && counts !== undefined && counts.completed + counts.failed > 0 ? 'finished' : named;
  const message = scrubSecrets(found.message ?? 'Amazon Bedrock gave no message');
  const errors = phase === 'failed' ? [{ code: scrubSecrets(found.status), message }] : [];
  return { state: scrubSecrets(found.status), phase, counts, errors, expiresAt: found.jobExpirationTime };
}

/** A finished job's manifest.json.out; one that does not read gives no counts (the job's own, or none, are shown). */
function manifestOf(text: string | undefined): z.infer<typeof manifestSchema> | undefined {
  if (text === undefined) return undefined;
  try {
    const read = manifestSchema.safeParse(JSON.parse(text));
    return read.success ? read.data : undefined;
  } catch {
    return undefined;
  }
}
