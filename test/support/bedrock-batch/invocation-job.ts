import { z } from 'zod';
import { converseBodySchema } from '../bedrock-test-server.js';
import type { CreateJob, JobContext, JobFaults } from './job-context.js';
import { jobOutput, type OutputObject } from './job-output.js';
import { withKey, type InputRecord, type RecordOutcome } from './record-answers.js';

/**
 * One model invocation job and its life, one step at a time, as Bedrock
 * names its states: Submitted → Validating (the input read from S3 and
 * checked: every line a record with a Converse body, at least the model's
 * minimum of records) → Scheduled → InProgress (a share of the records
 * answered a step, so the counts grow between polls) → Completed; or Failed
 * (validation), PartiallyCompleted, Expired or Stopped (a fault: the job
 * ends with records not run), Stopping → Stopped. On finishing it writes
 * its output to S3 as Bedrock does (job-output.ts), or later when the plan
 * has its output lag.
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

const FINISHED: ReadonlySet<JobStatus> = new Set(['Completed', 'PartiallyCompleted', 'Failed', 'Stopped', 'Expired']);
const recordSchema = z.object({ recordId: z.string().min(1), modelInput: converseBodySchema });

export class InvocationJob {
  status: JobStatus = 'Submitted';
  message: string | undefined;
  private records: readonly InputRecord[] = [];
  private readonly results: { readonly record: InputRecord; readonly outcome: RecordOutcome }[] = [];
  private readonly submitTime: Date;
  private endTime: Date | undefined;
  /** Output held back by outputLagGets, and the GetModelInvocationJob answers left before it is written. */
  private lagging: { objects: readonly OutputObject[]; getsLeft: number } | undefined;
  /** Steps of one job run one at a time, however many polls ask at once. */
  private stepping: Promise<void> = Promise.resolve();

  constructor(
    readonly jobArn: string,
    readonly request: CreateJob,
    now: Date,
    /** The access key of its create's SigV4 credential, for echoKey. */
    readonly accessKeyId?: string,
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

  /** Counts one GetModelInvocationJob answer against outputLagGets; the last one writes the output first. */
  async retrieved(context: JobContext): Promise<void> {
    const lagging = this.lagging;
    if (lagging === undefined) return;
    if (lagging.getsLeft > 0) {
      lagging.getsLeft -= 1;
      return;
    }
    this.lagging = undefined;
    for (const object of lagging.objects) await context.writeObject(object.uri, object.text);
  }

  /** The job as GetModelInvocationJob answers it; `faults` decorate its status and message (statusSuffix, messageSuffix). */
  toObject(faults: Pick<JobFaults, 'statusSuffix' | 'messageSuffix'> = {}): Record<string, unknown> {
    const succeeded = this.results.filter(({ outcome }) => 'modelOutput' in outcome).length;
    const message = faults.messageSuffix === undefined ? this.message : `${this.message ?? ''}${faults.messageSuffix}`;
    return {
      jobArn: this.jobArn,
      jobName: this.request.jobName,
      modelId: this.request.modelId,
      roleArn: this.request.roleArn,
      ...(this.request.clientRequestToken === undefined ? {} : { clientRequestToken: this.request.clientRequestToken }),
      status: this.status === 'InProgress' ? `InProgress${faults.statusSuffix ?? ''}` : this.status,
      ...(message === undefined ? {} : { message }),
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

  /** Answers the next share of records; then Completed when all are done, or PartiallyCompleted, Stopped or Expired when a fault says so. */
  private async run(context: JobContext): Promise<void> {
    const { partialAfterRecords, stopAfterRecords, expireAfterRecords } = context.faults();
    const cut = Math.min(...[partialAfterRecords, stopAfterRecords, expireAfterRecords].map((after) => after ?? Number.POSITIVE_INFINITY));
    const share = context.recordsPerStep ?? Math.ceil(this.records.length / 2);
    const until = Math.min(this.records.length, this.results.length + share, cut);
    const start = this.results.length;
    for (const [offset, record] of this.records.slice(start, until).entries())
      this.results.push({ record, outcome: context.answer(record, start + offset, this.request.modelId, this.accessKeyId) });
    if (this.results.length >= cut && this.results.length < this.records.length)
      return this.close(partialAfterRecords === cut ? 'PartiallyCompleted' : stopAfterRecords === cut ? 'Stopped' : 'Expired', context);
    if (this.results.length === this.records.length) await this.close('Completed', context);
  }

  private async fail(message: string, context: JobContext): Promise<void> {
    this.message = withKey(message, this.accessKeyId, context.faults());
    this.status = 'Failed';
    this.endTime = context.now();
  }

  /** Writes the output of the records that ran and the manifest, now or, under outputLagGets, after the Gets it says. */
  private async close(status: 'Completed' | 'PartiallyCompleted' | 'Expired' | 'Stopped', context: JobContext): Promise<void> {
    const faults = context.faults();
    const output = jobOutput(
      {
        jobId: this.jobId,
        inputUri: this.request.inputDataConfig.s3InputDataConfig.s3Uri,
        outputUri: this.request.outputDataConfig.s3OutputDataConfig.s3Uri,
        total: this.records.length,
        results: this.results,
      },
      faults,
    );
    if (output.written !== undefined) context.wroteOutput(this.jobArn, output.written);
    if ((faults.outputLagGets ?? 0) > 0) this.lagging = { objects: output.objects, getsLeft: faults.outputLagGets ?? 0 };
    else for (const object of output.objects) await context.writeObject(object.uri, object.text);
    this.status = status;
    this.endTime = context.now();
  }
}
