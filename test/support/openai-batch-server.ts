import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Oracle } from './chat-completion-answer.js';
import { OPENAI_BATCH_LIMITS, type BatchLimits } from './openai-batch/batch-input.js';
import { FileStore, type StoredFile } from './openai-batch/batch-files.js';
import type { BatchJob, BatchObject, JobContext, JobFaults } from './openai-batch/batch-job.js';
import { headersOf, replyTo, send } from './openai-batch/batch-http.js';
import { invalid, type CreateRefusal, type RouteContext } from './openai-batch/batch-routes.js';
import { LineAnswers } from './openai-batch/line-answers.js';

/**
 * A local stand-in for OpenAI's Batch API (and Azure OpenAI's Global Batch),
 * on 127.0.0.1 only, that the official `openai` client talks to unchanged:
 * files uploaded as multipart, batches created, polled, listed, cancelled,
 * their output and error files read back. Each line is answered by the same
 * oracle, parsing and completion body as the online test server
 * (openai-test-server.ts), so a batch run and an online run agree.
 *
 * Paths: OpenAI's under `/v1`; Azure's under `/openai/v1` (the v1 API) and
 * under `/openai` with an `api-version` query (the dated API, which the
 * SDK's AzureOpenAI client uses when made without a deployment). Any other
 * path, `/v1/chat/completions` above all, is answered 404 and logged, so a
 * test can assert that no online judge call was made.
 */
export type { BatchObject } from './openai-batch/batch-job.js';
export type { StoredFile } from './openai-batch/batch-files.js';
export type { CreateRefusal } from './openai-batch/batch-routes.js';

export interface BatchFaultPlan extends JobFaults {
  /** Answer `POST /batches` with this HTTP error (with `retry-after-ms: 5`), for its first `times` creates or all of them. */
  readonly refuseCreate?: CreateRefusal;
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
}

export interface LoggedCall {
  readonly method: string;
  /** The path without the query string. */
  readonly path: string;
  /** The path with the query string. */
  readonly url: string;
  readonly status: number;
  /** Every request header, names in lower case. */
  readonly headers: Readonly<Record<string, string>>;
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
  /** custom_id → the body.model its line ran with (on Azure, the deployment's name). */
  readonly models: ReadonlyMap<string, string>;
  /** The messages of oracles that threw (their lines were answered 500). */
  readonly oracleErrors: readonly string[];
  /** One step of that batch, or of every unfinished batch. */
  advance(batchId?: string): void;
  /** Steps that batch (or every one) until it is finished; returns that batch as the API would send it. */
  settle(batchId?: string): BatchObject | undefined;
  /** Replaces the plan; refuseCreate counts its `times` from here. */
  setFaults(plan: BatchFaultPlan): void;
  setOracle(oracle: Oracle): void;
  close(): Promise<void>;
}

export async function startOpenAiBatchServer(options: BatchServerOptions): Promise<OpenAiBatchServer> {
  checkOptions(options);
  const now = options.now ?? Date.now;
  const files = new FileStore(now);
  const batches = new Map<string, BatchJob>();
  const answers = new LineAnswers(options.oracle);
  const log: LoggedCall[] = [];
  let plan: BatchFaultPlan = options.faults ?? {};
  let refusedCreates = 0;
  const job: JobContext = {
    now,
    inputBytes: (fileId) => files.get(fileId)?.data,
    limits: { ...OPENAI_BATCH_LIMITS, ...options.limits },
    faults: () => plan,
    answer: (line) => answers.answer(line, plan),
    enqueuedTokens: (model, exceptBatchId) =>
      [...batches.values()]
        .filter((other) => other.id !== exceptBatchId && !other.finished && other.model === model)
        .reduce((sum, other) => sum + other.promptTokens, 0),
    writeFile: (filename, text) => files.add(filename, 'batch_output', Buffer.from(text, 'utf8')).info.id,
    linesPerStep: options.linesPerStep,
    outputOrder: options.outputOrder ?? 'reversed',
  };
  const routes: RouteContext = {
    files,
    batches,
    job,
    stepOnRetrieve: (options.progress ?? 'on-retrieve') === 'on-retrieve',
    createRefusal: () => {
      const refusal = plan.refuseCreate;
      if (refusal === undefined || refusedCreates >= (refusal.times ?? Number.POSITIVE_INFINITY)) return undefined;
      refusedCreates += 1;
      return refusal;
    },
  };
  const unfinished = (batchId: string | undefined): BatchJob[] =>
    [...batches.values()].filter((batch) => (batchId === undefined || batch.id === batchId) && !batch.finished);

  async function handle(incoming: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(incoming.url ?? '/', 'http://127.0.0.1');
    const chunks: Buffer[] = [];
    for await (const chunk of incoming) chunks.push(chunk as Buffer);
    const reply = replyTo(incoming, url, Buffer.concat(chunks), options, routes);
    log.push({
      method: incoming.method ?? 'GET',
      path: url.pathname,
      url: incoming.url ?? '/',
      status: reply.status,
      headers: headersOf(incoming),
    });
    send(response, reply);
  }

  const server = createServer((incoming, response) => {
    handle(incoming, response).catch((error: unknown) => {
      if (response.headersSent) return response.destroy();
      send(
        response,
        invalid(500, `The test batch server failed: ${error instanceof Error ? error.message : String(error)}`, null, null, 'server_error'),
      );
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const stepUnfinished = (batchId: string | undefined): void => {
    for (const batch of unfinished(batchId)) batch.step(job);
  };
  const timer = options.stepEveryMs === undefined ? undefined : setInterval(() => stepUnfinished(undefined), options.stepEveryMs);
  // The timer alone must not keep a test run alive.
  timer?.unref();
  let closing: Promise<void> | undefined;

  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    origin: `http://127.0.0.1:${port}`,
    log,
    files: files.all,
    batches,
    judged: answers.judged,
    models: answers.models,
    oracleErrors: answers.oracleErrors,
    advance: (batchId) => stepUnfinished(batchId),
    settle: (batchId) => {
      // Each step moves a batch on (a state, or at least one line), so this ends.
      for (let left = unfinished(batchId); left.length > 0; left = unfinished(batchId)) {
        for (const batch of left) batch.step(job);
      }
      return batchId === undefined ? undefined : batches.get(batchId)?.toObject();
    },
    setFaults: (next) => {
      plan = next;
      refusedCreates = 0;
    },
    setOracle: (oracle) => answers.setOracle(oracle),
    close: () => {
      clearInterval(timer);
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        // Idle keep-alive sockets would otherwise hold the server (and the test run) open.
        server.closeAllConnections();
      });
      return closing;
    },
  };
}

function checkOptions(options: BatchServerOptions): void {
  const { linesPerStep, stepEveryMs } = options;
  if (linesPerStep !== undefined && !(Number.isInteger(linesPerStep) && linesPerStep >= 1))
    throw new TypeError(`Expected linesPerStep to be an integer from 1 up, got ${linesPerStep}`);
  if (stepEveryMs !== undefined && !(Number.isFinite(stepEveryMs) && stepEveryMs > 0))
    throw new TypeError(`Expected stepEveryMs to be a number above 0, got ${stepEveryMs}`);
}
