import { z } from 'zod';
import type { BrokenLineFaults, WrittenResult } from '../openai-batch/broken-lines.js';
import type { InputRecord, RecordFaults, RecordOutcome } from './record-answers.js';

/**
 * What a model invocation job of the Bedrock batch test server
 * (invocation-job.ts) is given: the create it was made from, the faults it
 * runs under and what it asks of its server while it steps.
 */
export const createJobSchema = z.object({
  jobName: z.string().regex(/^[a-zA-Z0-9]{1,63}(-*[a-zA-Z0-9+\-.]){0,63}$/),
  roleArn: z.string().regex(/^arn:aws(-[^:]+)?:iam::\d{12}:role\/.+$/),
  clientRequestToken: z
    .string()
    .regex(/^[a-zA-Z0-9]{1,256}(-*[a-zA-Z0-9]){0,256}$/)
    .optional(),
  modelId: z.string().min(1),
  inputDataConfig: z.object({
    s3InputDataConfig: z.object({ s3Uri: z.string().startsWith('s3://'), s3InputFormat: z.literal('JSONL').optional() }),
  }),
  outputDataConfig: z.object({ s3OutputDataConfig: z.object({ s3Uri: z.string().startsWith('s3://') }) }),
  modelInvocationType: z.enum(['InvokeModel', 'Converse']).optional(),
});
export type CreateJob = z.infer<typeof createJobSchema>;

/** The faults of the job's output file, `<input>.out`: see broken-lines.ts. */
export type OutputFaults = BrokenLineFaults;

export interface JobFaults extends RecordFaults, OutputFaults {
  /** Every job validated under the plan fails with this message. */
  readonly validationMessage?: string;
  /** The job ends PartiallyCompleted once this many of its records are done; the rest are absent from the output. */
  readonly partialAfterRecords?: number;
  /** The job ends Expired once this many of its records are done. */
  readonly expireAfterRecords?: number;
  /** The job ends Stopped once this many of its records are done, its output written for them, as if stopped mid-way. */
  readonly stopAfterRecords?: number;
  /** Creates no longer match a job by their token (its idempotency window has passed): a second create of a name is a ConflictException. */
  readonly forgetTokens?: boolean;
  /**
   * A finished job's output objects (`<input>.out`, `manifest.json.out`) are missing from S3 for its
   * next n GetModelInvocationJob answers (the one whose step finished it counts), then written before
   * the answer after those. advance() and settle() do not count.
   */
  readonly outputLagGets?: number;
  /** The next n GetModelInvocationJob calls are answered 429 ThrottlingException, without stepping the job. */
  readonly throttleGets?: number;
  /** After those, the next n GetModelInvocationJob calls are answered 500 InternalServerException, without stepping the job. */
  readonly serverErrorGets?: number;
  /** Appended to the job's `status` while it is InProgress (e.g. `"\u202e"`); every other status is sent as it is. */
  readonly statusSuffix?: string;
  /** Appended to the job's `message`; a job with no message of its own gets it as its message. */
  readonly messageSuffix?: string;
}

/** What a job needs from its server while it steps. */
export interface JobContext {
  readObject(uri: string): Promise<string | undefined>;
  writeObject(uri: string, text: string): Promise<void>;
  faults(): JobFaults;
  /** `position` is the record's index in the job's input; `accessKeyId` the one the job was created with, for echoKey. */
  answer(record: InputRecord, position: number, modelId: string, accessKeyId: string | undefined): RecordOutcome;
  /** The fewest records a job may hold. */
  readonly minRecords: number;
  readonly recordsPerStep: number | undefined;
  now(): Date;
  /** Told what each output file holds when the job finishes: which lines its faults broke, what it bills. */
  wroteOutput(jobArn: string, written: WrittenResult): void;
}
