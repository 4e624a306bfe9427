import type { Oracle } from '../chat-completion-answer.js';
import type { BrokenLineKind } from '../openai-batch/broken-lines.js';
import type { BilledTokens } from '../openai-batch/result-ledger.js';
import type { InvocationJob } from './invocation-job.js';
import type { JobFaults } from './job-context.js';

/** The options and the handle of the Bedrock batch test server (bedrock-batch-server.ts). */
export interface BedrockBatchServerOptions {
  readonly oracle: Oracle;
  /** The S3 emulator (fauxqs) the jobs read and write. */
  readonly s3Endpoint: string;
  /** The access key a request's SigV4 credential must name; unchecked when absent. */
  readonly accessKeyId?: string;
  readonly faults?: JobFaults;
  /** 'on-retrieve' (default): each GetModelInvocationJob steps that job once before answering; 'manual': only advance() and settle() do. */
  readonly progress?: 'on-retrieve' | 'manual';
  /** Records answered by one InProgress step; default half the job's (rounded up). */
  readonly recordsPerStep?: number;
  /** The model's minimum records per job; default 1. */
  readonly minRecords?: number;
}

/** A line of a job's output that a fault of the plan broke. */
export interface BrokenRecord {
  readonly jobArn: string;
  readonly recordId: string;
  /** The fault, by its option's name. */
  readonly kind: BrokenLineKind;
}

export interface LoggedCall {
  readonly method: string;
  readonly path: string;
  readonly status: number;
}

export interface BedrockBatchServer {
  /** http://127.0.0.1:PORT, for AWS_ENDPOINT_URL_BEDROCK. */
  readonly endpoint: string;
  readonly log: readonly LoggedCall[];
  /** Every job created, by ARN, in order of creation. */
  readonly jobs: ReadonlyMap<string, InvocationJob>;
  /** recordId → how many times the oracle judged it, over every job. */
  readonly judged: ReadonlyMap<string, number>;
  readonly oracleErrors: readonly string[];
  /** recordId → how many lines of the jobs' inputs carried it, over every job created (read from S3 at its create). */
  readonly sent: ReadonlyMap<string, number>;
  /** Every output line a fault broke (notJsonLines, cutLastLine, unknownIdLines, duplicateLines), in the order written. */
  readonly brokenLines: readonly BrokenRecord[];
  /**
   * The tokens (Converse `usage`) of every line the jobs wrote into their output with a modelOutput,
   * for that job (by ARN) or all: broken, duplicated and unknown lines included. A job is billed when
   * it finishes.
   */
  billed(jobArn?: string): BilledTokens;
  /** One step of that job, or of every unfinished job. */
  advance(jobArn?: string): Promise<void>;
  /** Steps that job (or every one) until it is finished. */
  settle(jobArn?: string): Promise<void>;
  /** Replaces the plan; throttleGets and serverErrorGets count from here. */
  setFaults(plan: JobFaults): void;
  close(): Promise<void>;
}
