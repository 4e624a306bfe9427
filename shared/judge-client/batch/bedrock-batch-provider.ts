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
import { quietNodeVersionNotice } from '../../ports/aws-node-notice.js';
import type { BatchRequest } from './batch-request.js';
import type { BatchJobStatus, BatchLimits, BatchPhase, BatchProvider } from './batch-provider.js';
import {
  answerOfLine,
  INPUT_FILE,
  jobFolder,
  jobIdOf,
  manifestSchema,
  outputLineSchema,
  s3LocationOf,
  s3ObjectOf,
  s3Uri,
} from './bedrock-batch-files.js';

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

  async function find(key: string): Promise<string | undefined> {
    let nextToken: string | undefined;
    do {
      const page = summariesSchema.parse(
        await bedrock.send(
          new ListModelInvocationJobsCommand({
            nameContains: key,
            sortBy: 'CreationTime',
            sortOrder: 'Descending',
            ...(nextToken === undefined ? {} : { nextToken }),
          }),
        ),
      );
      const found = page.invocationJobSummaries?.find((job) => job.jobName === key);
      if (found !== undefined) return found.jobArn;
      nextToken = page.nextToken;
    } while (nextToken !== undefined);
    return undefined;
  }

  async function job(jobArn: string): Promise<Job> {
    return jobSchema.parse(await bedrock.send(new GetModelInvocationJobCommand({ jobIdentifier: jobArn })));
  }

  /** An object's text, or undefined when there is none (a job stopped before it wrote its output). */
  async function text(uri: string): Promise<string | undefined> {
    const { bucket, key } = s3ObjectOf(uri);
    try {
      const object = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
      return await object.Body?.transformToString('utf8');
    } catch (error) {
      if (error instanceof NoSuchKey || (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404)
        return undefined;
      throw error;
    }
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
      const folder = jobFolder(location, runId, key);
      await s3.send(
        new PutObjectCommand({ Bucket: location.bucket, Key: `${folder}${INPUT_FILE}`, Body: input, ContentType: 'application/jsonl' }),
      );
      try {
        const created = await bedrock.send(
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
        return z.object({ jobArn: z.string().min(1) }).parse(created).jobArn;
      } catch (error) {
        // The name is taken: by this job, created by a process that died before it recorded the id.
        const existing = error instanceof ConflictException ? await find(key) : undefined;
        if (existing === undefined) throw error;
        return existing;
      }
    },
    async status(jobArn) {
      const found = await job(jobArn);
      return statusOf(
        found,
        PHASES[found.status.toLowerCase()] === 'finished' ? await text(`${outputOf(found)}manifest.json.out`) : undefined,
      );
    },
    async *answers(jobArn) {
      const found = await job(jobArn);
      const inputName = found.inputDataConfig.s3InputDataConfig.s3Uri.split('/').at(-1) ?? INPUT_FILE;
      const output = await text(`${outputOf(found)}${inputName}.out`);
      for (const line of (output ?? '').split('\n')) {
        if (line.trim() === '') continue;
        const parsed = outputLineSchema.parse(JSON.parse(line));
        yield { requestId: parsed.recordId, answer: answerOfLine(parsed) };
      }
    },
    async cancel(jobArn) {
      await bedrock.send(new StopModelInvocationJobCommand({ jobIdentifier: jobArn }));
    },
  };
}

/** The job as the rounds see it: its counts from the job, else from a finished job's manifest; a failed job's message as its error. */
function statusOf(found: Job, manifestText: string | undefined): BatchJobStatus {
  const phase = PHASES[found.status.toLowerCase()] ?? 'running';
  const manifest = manifestText === undefined ? undefined : manifestSchema.parse(JSON.parse(manifestText));
  const total = found.totalRecordCount ?? manifest?.totalRecordCount;
  const completed = found.successRecordCount ?? manifest?.successRecordCount;
  const failed = found.errorRecordCount ?? manifest?.errorRecordCount;
  const counts = total === undefined || completed === undefined ? undefined : { total, completed, failed: failed ?? 0 };
  const errors = phase === 'failed' ? [{ code: found.status, message: found.message ?? 'Amazon Bedrock gave no message' }] : [];
  return { state: found.status, phase, counts, errors };
}
