import { z } from 'zod';
import { converseBodySchema } from '../bedrock-test-server.js';
import type { InputRecord, RecordFaults, RecordOutcome } from './record-answers.js';

/**
 * One model invocation job and its life, one step at a time, as Bedrock
 * names its states: Submitted → Validating (the input read from S3 and
 * checked: every line a record with a Converse body, at least the model's
 * minimum of records) → Scheduled → InProgress (a share of the records
 * answered a step, so the counts grow between polls) → Completed; or Failed
 * (validation), PartiallyCompleted or Expired (a fault: the job ends with
 * records not run), Stopping → Stopped. On finishing it writes its output
 * to S3 as Bedrock does: `<output>/<job id>/<input name>.out` and
 * `manifest.json.out`.
 */
export type JobStatus =
  | 'Submitted'
  | 'Validating'
  | 'Scheduled'
  | 'InProgress'
  | 'Stopping'
  | 'Completed'
  | 'PartiallyCompleted'
  | 'Failed'
  | 'Stopped'
  | 'Expired';

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

export interface JobFaults extends RecordFaults {
  /** Every job validated under the plan fails with this message. */
  readonly validationMessage?: string;
  /** The job ends PartiallyCompleted once this many of its records are done; the rest are absent from the output. */
  readonly partialAfterRecords?: number;
  /** The job ends Expired once this many of its records are done. */
  readonly expireAfterRecords?: number;
  /** Creates no longer match a job by their token (its idempotency window has passed): a second create of a name is a ConflictException. */
  readonly forgetTokens?: boolean;
}

/** What a job needs from its server while it steps. */
export interface JobContext {
  readObject(uri: string): Promise<string | undefined>;
  writeObject(uri: string, text: string): Promise<void>;
  faults(): JobFaults;
  answer(record: InputRecord, modelId: string): RecordOutcome;
  /** The fewest records a job may hold. */
  readonly minRecords: number;
  readonly recordsPerStep: number | undefined;
  now(): Date;
}

const FINISHED: ReadonlySet<JobStatus> = new Set(['Completed', 'PartiallyCompleted', 'Failed', 'Stopped', 'Expired']);
const recordSchema = z.object({ recordId: z.string().min(1), modelInput: converseBodySchema });

export class InvocationJob {
  status: JobStatus = 'Submitted';
  message: string | undefined;
  private records: readonly InputRecord[] = [];
  private readonly results: { readonly record: InputRecord; readonly outcome: RecordOutcome }[] = [];
  private readonly submitTime: Date;
  private endTime: Date | undefined;
  /** Steps of one job run one at a time, however many polls ask at once. */
  private stepping: Promise<void> = Promise.resolve();

  constructor(
    readonly jobArn: string,
    readonly request: CreateJob,
    now: Date,
  ) {
    this.submitTime = now;
  }

  get finished(): boolean {
    return FINISHED.has(this.status);
  }

  get jobId(): string {
    return this.jobArn.slice(this.jobArn.lastIndexOf('/') + 1);
  }

  /** One step of the job's life; nothing once it is finished. */
  step(context: JobContext): Promise<void> {
    this.stepping = this.stepping.then(() => this.next(context));
    return this.stepping;
  }

  /** Starts stopping; undefined when it could, else why not (a finished job). */
  stop(): string | undefined {
    if (this.finished) return `The job is ${this.status} and cannot be stopped.`;
    this.status = 'Stopping';
    return undefined;
  }

  /** The job as GetModelInvocationJob answers it. */
  toObject(): Record<string, unknown> {
    const succeeded = this.results.filter(({ outcome }) => 'modelOutput' in outcome).length;
    return {
      jobArn: this.jobArn,
      jobName: this.request.jobName,
      modelId: this.request.modelId,
      roleArn: this.request.roleArn,
      ...(this.request.clientRequestToken === undefined ? {} : { clientRequestToken: this.request.clientRequestToken }),
      status: this.status,
      ...(this.message === undefined ? {} : { message: this.message }),
      submitTime: this.submitTime.toISOString(),
      lastModifiedTime: (this.endTime ?? this.submitTime).toISOString(),
      ...(this.endTime === undefined ? {} : { endTime: this.endTime.toISOString() }),
      inputDataConfig: this.request.inputDataConfig,
      outputDataConfig: this.request.outputDataConfig,
      modelInvocationType: this.request.modelInvocationType ?? 'InvokeModel',
      ...(this.status === 'Submitted' || this.status === 'Validating' || this.status === 'Failed'
        ? {}
        : {
            totalRecordCount: this.records.length,
            processedRecordCount: this.results.length,
            successRecordCount: succeeded,
            errorRecordCount: this.results.length - succeeded,
          }),
    };
  }

  private async next(context: JobContext): Promise<void> {
    if (this.status === 'Submitted') this.status = 'Validating';
    else if (this.status === 'Validating') await this.validate(context);
    else if (this.status === 'Scheduled') this.status = 'InProgress';
    else if (this.status === 'InProgress') await this.run(context);
    else if (this.status === 'Stopping') await this.close('Stopped', context);
  }

  private async validate(context: JobContext): Promise<void> {
    const faults = context.faults();
    if (faults.validationMessage !== undefined) return this.fail(faults.validationMessage, context);
    // The records are Converse bodies: a job of the InvokeModel type would read them as the model's native body.
    if (this.request.modelInvocationType !== 'Converse')
      return this.fail(`The records are not ${this.request.modelId} InvokeModel bodies (this server takes Converse jobs only).`, context);
    const text = await context.readObject(this.request.inputDataConfig.s3InputDataConfig.s3Uri);
    if (text === undefined) return this.fail('The specified input S3 object does not exist.', context);
    const records: InputRecord[] = [];
    for (const [index, line] of text.split('\n').entries()) {
      if (line.trim() === '') continue;
      const parsed = recordSchema.safeParse(JSON.parse(line));
      if (!parsed.success) return this.fail(`Invalid record at line ${index + 1}: ${parsed.error.issues[0]?.message}`, context);
      records.push(parsed.data);
    }
    if (records.length < context.minRecords) {
      return this.fail(
        `Input has ${records.length} records, fewer than the minimum of ${context.minRecords} records per batch inference job for ${this.request.modelId}.`,
        context,
      );
    }
    this.records = records;
    this.status = 'Scheduled';
  }

  /** Answers the next share of records; then Completed when all are done, or PartiallyCompleted or Expired when a fault says so. */
  private async run(context: JobContext): Promise<void> {
    const { partialAfterRecords, expireAfterRecords } = context.faults();
    const cut = Math.min(partialAfterRecords ?? Number.POSITIVE_INFINITY, expireAfterRecords ?? Number.POSITIVE_INFINITY);
    const share = context.recordsPerStep ?? Math.ceil(this.records.length / 2);
    const until = Math.min(this.records.length, this.results.length + share, cut);
    for (const record of this.records.slice(this.results.length, until))
      this.results.push({ record, outcome: context.answer(record, this.request.modelId) });
    if (this.results.length >= cut && this.results.length < this.records.length)
      return this.close(partialAfterRecords === cut ? 'PartiallyCompleted' : 'Expired', context);
    if (this.results.length === this.records.length) await this.close('Completed', context);
  }

  private async fail(message: string, context: JobContext): Promise<void> {
    this.message = message;
    this.status = 'Failed';
    this.endTime = context.now();
  }

  /** Writes the output of the records that ran (in reverse, so a reader by position fails) and the manifest. */
  private async close(status: 'Completed' | 'PartiallyCompleted' | 'Expired' | 'Stopped', context: JobContext): Promise<void> {
    const folder = `${this.request.outputDataConfig.s3OutputDataConfig.s3Uri.replace(/\/+$/, '')}/${this.jobId}/`;
    const inputName = this.request.inputDataConfig.s3InputDataConfig.s3Uri.split('/').at(-1) ?? 'input.jsonl';
    const lines = [...this.results]
      .reverse()
      .map(({ record, outcome }) => `${JSON.stringify({ recordId: record.recordId, modelInput: record.modelInput, ...outcome })}\n`);
    if (lines.length > 0) await context.writeObject(`${folder}${inputName}.out`, lines.join(''));
    const succeeded = this.results.filter(({ outcome }) => 'modelOutput' in outcome).length;
    const manifest = {
      totalRecordCount: this.records.length,
      processedRecordCount: this.results.length,
      successRecordCount: succeeded,
      errorRecordCount: this.results.length - succeeded,
      inputTokenCount: 0,
      outputTokenCount: 0,
    };
    await context.writeObject(`${folder}manifest.json.out`, JSON.stringify(manifest));
    this.status = status;
    this.endTime = context.now();
  }
}
