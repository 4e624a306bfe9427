import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { OPENAI_BATCH_LIMITS } from './openai-batch/batch-input.js';
import { FileStore } from './openai-batch/batch-files.js';
import type { BatchJob } from './openai-batch/batch-job.js';
import type { JobContext } from './openai-batch/job-context.js';
import { headersOf, replyTo, send } from './openai-batch/batch-http.js';
import { invalid } from './openai-batch/api-reply.js';
import type { RouteContext } from './openai-batch/batch-routes.js';
import { HeldRequests } from './openai-batch/held-requests.js';
import { HttpFaults } from './openai-batch/http-faults.js';
import { LineAnswers } from './openai-batch/line-answers.js';
import { idsOfLines, ResultLedger } from './openai-batch/result-ledger.js';
import type { BatchFaultPlan, BatchServerOptions, BrokenLine, LoggedCall, OpenAiBatchServer } from './openai-batch/server-api.js';

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
export type { CreateRefusal } from './openai-batch/batch-create.js';
export type { RouteName } from './openai-batch/route-names.js';
export type { HttpFault } from './openai-batch/http-faults.js';
export type { BilledTokens } from './openai-batch/result-ledger.js';
export type { BatchFaultPlan, BatchServerOptions, BrokenLine, LoggedCall, OpenAiBatchServer } from './openai-batch/server-api.js';

const DAY_SECONDS = 24 * 3600;

export async function startOpenAiBatchServer(options: BatchServerOptions): Promise<OpenAiBatchServer> {
  checkOptions(options);
  const now = options.now ?? Date.now;
  const files = new FileStore(now);
  const batches = new Map<string, BatchJob>();
  const answers = new LineAnswers(options.oracle);
  const log: LoggedCall[] = [];
  const ledger = new ResultLedger();
  const brokenLines: BrokenLine[] = [];
  const httpFaults = new HttpFaults();
  const heldCreates = new HeldRequests();
  let plan: BatchFaultPlan = options.faults ?? {};
  let refusedCreates = 0;
  const job: JobContext = {
    now,
    inputBytes: (fileId) => files.get(fileId)?.data,
    limits: { ...OPENAI_BATCH_LIMITS, ...options.limits },
    faults: () => plan,
    answer: (line, apiKey) => answers.answer(line, plan, apiKey),
    enqueuedTokens: (model, exceptBatchId) =>
      [...batches.values()]
        .filter((other) => other.id !== exceptBatchId && !other.finished && other.model === model)
        .reduce((sum, other) => sum + other.promptTokens, 0),
    writeFile: (filename, text) => files.add(filename, 'batch_output', Buffer.from(text, 'utf8')).info.id,
    wroteOutput: (batchId, written) => {
      ledger.bill(batchId, written.billed);
      for (const { id, kind } of written.broken) brokenLines.push({ batchId, custom_id: id, kind });
    },
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
    windowSeconds: () => plan.completionWindowSeconds ?? options.completionWindowSeconds ?? DAY_SECONDS,
    created: (input) => ledger.countSent(idsOfLines(input.toString('utf8'), 'custom_id')),
  };
  const unfinished = (batchId: string | undefined): BatchJob[] =>
    [...batches.values()].filter((batch) => (batchId === undefined || batch.id === batchId) && !batch.finished);

  async function handle(incoming: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(incoming.url ?? '/', 'http://127.0.0.1');
    const chunks: Buffer[] = [];
    for await (const chunk of incoming) chunks.push(chunk as Buffer);
    // Held before anything of the create is checked or done, as if it were still on its way.
    const held = plan.holdCreate === true && incoming.method === 'POST' && /\/batches$/.test(url.pathname);
    const released = held ? await heldCreates.hold() : true;
    const reply = released
      ? replyTo(incoming, url, Buffer.concat(chunks), options, routes, (request) => httpFaults.take(plan, request))
      : { status: 0, body: {}, cut: true };
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
    sent: ledger.sent,
    brokenLines,
    models: answers.models,
    oracleErrors: answers.oracleErrors,
    get heldCreates() {
      return heldCreates.count;
    },
    billed: (batchId) => ledger.billed(batchId),
    advance: (batchId) => stepUnfinished(batchId),
    settle: (batchId) => {
      // Each step moves a batch on (a state, or at least one line), so this ends.
      for (let left = unfinished(batchId); left.length > 0; left = unfinished(batchId)) {
        for (const batch of left) batch.step(job);
      }
      return batchId === undefined ? undefined : batches.get(batchId)?.toObject(plan);
    },
    setFaults: (next) => {
      plan = next;
      refusedCreates = 0;
      httpFaults.reset();
    },
    setOracle: (oracle) => answers.setOracle(oracle),
    releaseCreate: () => heldCreates.release(),
    close: () => {
      clearInterval(timer);
      heldCreates.drop();
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
  const { linesPerStep, stepEveryMs, completionWindowSeconds } = options;
  if (completionWindowSeconds !== undefined && !(Number.isInteger(completionWindowSeconds) && completionWindowSeconds >= 1))
    throw new TypeError(`Expected completionWindowSeconds to be an integer from 1 up, got ${completionWindowSeconds}`);
  if (linesPerStep !== undefined && !(Number.isInteger(linesPerStep) && linesPerStep >= 1))
    throw new TypeError(`Expected linesPerStep to be an integer from 1 up, got ${linesPerStep}`);
  if (stepEveryMs !== undefined && !(Number.isFinite(stepEveryMs) && stepEveryMs > 0))
    throw new TypeError(`Expected stepEveryMs to be a number above 0, got ${stepEveryMs}`);
}
