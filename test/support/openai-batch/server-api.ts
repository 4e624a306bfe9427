import type { Oracle } from '../chat-completion-answer.js';
import type { BatchLimits } from './batch-input.js';
import type { StoredFile } from './batch-files.js';
import type { BatchJob, BatchObject } from './batch-job.js';
import type { JobFaults } from './job-context.js';
import type { CreateRefusal } from './batch-create.js';
import type { BrokenLineKind } from './broken-lines.js';
import type { HttpFaultPlan } from './http-faults.js';
import type { BilledTokens } from './result-ledger.js';

/** The options, the fault plan and the handle of the OpenAI batch test server (openai-batch-server.ts). */
export interface BatchFaultPlan extends JobFaults, HttpFaultPlan {
  /** Answer `POST /batches` with this HTTP error (with `retry-after-ms: 5`), for its first `times` creates or all of them. */
  readonly refuseCreate?: CreateRefusal;
  /**
   * `POST batches` gets no answer until releaseCreate() (then the batch is created and answered,
   * even when its client has gone) or the server closes (then none is created).
   */
  readonly holdCreate?: boolean;
  /** expires_at of a batch created under the plan is created_at plus this, instead of the server's window. The server does not expire it then: expireAfterLines does. */
  readonly completionWindowSeconds?: number;
}

export interface BatchServerOptions {
  readonly oracle: Oracle;
  /** The key `/v1` requests must send as `Authorization: Bearer`; unchecked when absent. */
  readonly apiKey?: string;
  /** The key `/openai/...` requests must send in `api-key` (the v1 paths also take it as a Bearer token, as Azure does); unchecked when absent. */
  readonly azureKey?: string;
  readonly faults?: BatchFaultPlan;
  /** 'on-retrieve' (default): each `GET /batches/{id}` steps that batch once before answering; 'manual': only advance(), settle() and stepEveryMs do. */
  readonly progress?: 'on-retrieve' | 'manual';
  /** Lines answered by one in_progress step; default half the batch's (rounded up), so a poll sees it part done. */
  readonly linesPerStep?: number;
  /** Also step every unfinished batch on a wall-clock timer this often. */
  readonly stepEveryMs?: number;
  /** Default OpenAI's: 50,000 requests and 200 MB a batch. */
  readonly limits?: Partial<BatchLimits>;
  /** 'reversed' (default) writes output and error lines in the reverse of the order they ran, so a client reading by position fails. */
  readonly outputOrder?: 'reversed' | 'input';
  /** Milliseconds since the epoch, for the created_at and *_at stamps; default Date.now. */
  readonly now?: () => number;
  /** A batch's window, for its expires_at: default 24 hours, as the API's '24h'; the plan's completionWindowSeconds overrides it. */
  readonly completionWindowSeconds?: number;
}

export interface LoggedCall {
  readonly method: string;
  /** The path without the query string. */
  readonly path: string;
  /** The path with the query string. */
  readonly url: string;
  /** 0 when the connection was cut (httpFaults) or dropped while held. */
  readonly status: number;
  /** Every request header, names in lower case. */
  readonly headers: Readonly<Record<string, string>>;
}

/** A line of an output file that a fault of the plan broke. */
export interface BrokenLine {
  readonly batchId: string;
  readonly custom_id: string;
  /** The fault, by its option's name. */
  readonly kind: BrokenLineKind;
}

export interface OpenAiBatchServer {
  /** e.g. http://127.0.0.1:PORT/v1 */
  readonly baseUrl: string;
  /** e.g. http://127.0.0.1:PORT: the endpoint of an Azure OpenAI resource. */
  readonly origin: string;
  /** Every HTTP request, in order of arrival, with the status it was answered. */
  readonly log: readonly LoggedCall[];
  /** Every file still stored: uploads (purpose batch) and the batches' output and error files (batch_output). */
  readonly files: ReadonlyMap<string, StoredFile>;
  /** Every batch created, by id, in order of creation. */
  readonly batches: ReadonlyMap<string, BatchJob>;
  /** custom_id → how many times the oracle judged it, over every batch. */
  readonly judged: ReadonlyMap<string, number>;
  /** custom_id → how many lines of the batches' input files carried it, over every batch created. */
  readonly sent: ReadonlyMap<string, number>;
  /** Every output line a fault broke (notJsonLines, cutLastLine, unknownIdLines, duplicateLines, errorBodyUnder200), in the order written. */
  readonly brokenLines: readonly BrokenLine[];
  /** custom_id → the body.model its line ran with (on Azure, the deployment's name). */
  readonly models: ReadonlyMap<string, string>;
  /** The messages of oracles that threw (their lines were answered 500). */
  readonly oracleErrors: readonly string[];
  /** How many `POST batches` are held now (holdCreate). */
  readonly heldCreates: number;
  /**
   * The tokens of every output line the server wrote with a 200 answer carrying usage, for that
   * batch or all: broken, duplicated and unknown lines included, errorBodyUnder200 lines not. A batch
   * is billed when it writes its output file.
   */
  billed(batchId?: string): BilledTokens;
  /** One step of that batch, or of every unfinished batch. */
  advance(batchId?: string): void;
  /** Steps that batch (or every one) until it is finished; returns that batch as the API would send it. */
  settle(batchId?: string): BatchObject | undefined;
  /** Replaces the plan; refuseCreate and httpFaults count their `times` from here. */
  setFaults(plan: BatchFaultPlan): void;
  setOracle(oracle: Oracle): void;
  /** Lets every held `POST batches` go on (holdCreate). */
  releaseCreate(): void;
  close(): Promise<void>;
}
