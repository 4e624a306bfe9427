import OpenAI, { AzureOpenAI, toFile } from 'openai';
import { networkFault } from '../network/network-fault.js';
import { rememberSecret, scrubSecrets } from '../secrets/scrub-secrets.js';
import type { AzureDeployment } from '../judge-client/judge-client.js';
import { DEFAULT_TIMEOUT_MS } from '../judge-client/judge-client-schema.js';
import { shownUrl } from '../judge-client/server-reach.js';
import type { BatchRequest } from '../schema/batch-request.js';
import {
  BatchProviderError,
  type BatchJobStatus,
  type BatchLimits,
  type BatchPhase,
  type BatchProvider,
  type CreatedJob,
} from './batch-provider.js';
import { readChatResultLine } from './chat-result-line.js';
import { resultLines } from './result-lines.js';

/**
 * The batch API of OpenAI and of Azure OpenAI's Global Batch deployments,
 * through the openai SDK: the input uploaded as a file (purpose `batch`),
 * a batch created from it for `/v1/chat/completions` with the job's key in
 * its metadata (so a job created by a process that died before it recorded
 * the id is found again, not created twice), then the output file (answered
 * lines) and the error file (refused lines, and lines the job did not run:
 * expired, cancelled) read by `custom_id`.
 *
 * Azure takes the same API under `{endpoint}/openai/v1/` with an `api-key`
 * header, or under `{endpoint}/openai/` with a dated api-version (the SDK's
 * AzureOpenAI client, made without a deployment: with one it would send the
 * batch calls to the deployment's path); every line's model is the Global
 * Batch deployment's name.
 */
export type OpenAiBatchTarget =
  | { readonly kind: 'openai'; readonly baseUrl: string | undefined; readonly apiKey: string }
  | { readonly kind: 'azure'; readonly azure: AzureDeployment; readonly apiKey: string };

/** OpenAI's limits of one batch (its Batch API guide); Azure's Global Batch takes 100,000 requests in a 200 MB file. */
const OPENAI_LIMITS: BatchLimits = { maxRequests: 50_000, maxBytes: 200 * 1024 * 1024, minRequests: 1 };
const AZURE_LIMITS: BatchLimits = { maxRequests: 100_000, maxBytes: 200 * 1024 * 1024, minRequests: 1 };
const METADATA_KEY = 'assay_job';
const ENDPOINT = '/v1/chat/completions';
const DAY_SECONDS = 24 * 3600;

const PHASES: Readonly<Record<string, BatchPhase>> = {
  validating: 'pending',
  in_progress: 'running',
  finalizing: 'running',
  cancelling: 'running',
  completed: 'finished',
  expired: 'finished',
  cancelled: 'finished',
  failed: 'failed',
};

/**
 * `timeoutMs` bounds each attempt of a JSON call (a list, a look at a job,
 * a create, a cancel, a delete): judge.timeout_ms, 60 s by default. An
 * upload or a download of a job's file keeps the SDK's 10 minutes, which a
 * file of hundreds of megabytes may need.
 */
export function openAiBatchProvider(target: OpenAiBatchTarget, timeoutMs = DEFAULT_TIMEOUT_MS): BatchProvider {
  rememberSecret(target.apiKey);
  const client = clientOf(target);
  const providerCall = <Value>(call: () => Promise<Value>, options: CallOptions = {}) =>
    providerCallTo(shownUrl(client.baseURL), call, options);
  const json = { timeout: timeoutMs };
  const name =
    target.kind === 'openai'
      ? `the OpenAI batch API at ${new URL(target.baseUrl ?? 'https://api.openai.com/v1').host}`
      : `Azure OpenAI deployment ${target.azure.deployment}`;
  return {
    name,
    limits: target.kind === 'openai' ? OPENAI_LIMITS : AZURE_LIMITS,
    line: (request: BatchRequest) => JSON.stringify({ custom_id: request.id, method: 'POST', url: ENDPOINT, body: request.body }),
    find: (key) =>
      providerCall(async () => {
        // Newest first: a job created moments ago by a process that died is on the first page or two.
        for await (const batch of client.batches.list({ limit: 100 }, json)) {
          if (batch.metadata?.[METADATA_KEY] === key) {
            await deleteOrphanInputs(client, key, batch.input_file_id, timeoutMs);
            return createdOf(batch);
          }
          if (Date.now() / 1000 - batch.created_at > 2 * DAY_SECONDS) return undefined;
        }
        return undefined;
      }),
    create: (key, input) =>
      providerCall(async () => {
        const file = await client.files.create({ file: await toFile(Buffer.from(input, 'utf8'), inputName(key)), purpose: 'batch' });
        // Sent once: a create whose answer was lost may have made the job, and the SDK's retry would make a second,
        // which the provider runs and bills too. A failed create is a transient failure; the next try finds the job by its key first.
        const batch = await client.batches.create(
          { input_file_id: file.id, endpoint: ENDPOINT, completion_window: '24h', metadata: { [METADATA_KEY]: key } },
          { maxRetries: 0, ...json },
        );
        // An input uploaded by a process that died before its batch was created is no one's: it goes once this job exists.
        await deleteOrphanInputs(client, key, file.id, timeoutMs);
        return createdOf(batch);
      }),
    status: (jobId) => providerCall(async () => statusOf(await client.batches.retrieve(jobId, json))),
    async *answers(jobId) {
      const batch = await providerCall(() => client.batches.retrieve(jobId, json));
      for (const fileId of [batch.output_file_id, batch.error_file_id]) {
        if (fileId === undefined || fileId === null) continue;
        // A 404 here is a file the job names that storage does not serve yet: a transient failure, looked at again.
        const text = await providerCall(async () => (await client.files.content(fileId)).text(), { notFoundIsTransient: true });
        yield* resultLines(text, readChatResultLine);
      }
    },
    cancel: (jobId) =>
      providerCall(async () => {
        await client.batches.cancel(jobId, json);
      }),
  };
}

function clientOf(target: OpenAiBatchTarget): OpenAI {
  if (target.kind === 'openai') return new OpenAI({ apiKey: target.apiKey, baseURL: target.baseUrl });
  const endpoint = target.azure.endpoint.replace(/\/+$/, '');
  if (target.azure.apiVersion === 'v1' || target.azure.apiVersion === 'preview') {
    // The v1 API: OpenAI's paths under /openai/v1/, authenticated by the api-key header alone.
    return new OpenAI({
      apiKey: target.apiKey,
      baseURL: `${endpoint}/openai/v1`,
      defaultHeaders: { 'api-key': target.apiKey, Authorization: null },
    });
  }
  return new AzureOpenAI({ apiKey: target.apiKey, endpoint, apiVersion: target.azure.apiVersion });
}

function statusOf(batch: OpenAI.Batches.Batch): BatchJobStatus {
  const counts =
    batch.request_counts === undefined
      ? undefined
      : { total: batch.request_counts.total, completed: batch.request_counts.completed, failed: batch.request_counts.failed };
  const errors = (batch.errors?.data ?? []).map((error) => ({
    code: scrubSecrets(error.code ?? 'error'),
    message: scrubSecrets(error.message ?? ''),
    line: error.line ?? undefined,
  }));
  const state = scrubSecrets(batch.status);
  const named = PHASES[batch.status.toLowerCase()];
  const files = (batch.output_file_id ?? batch.error_file_id ?? null) !== null;
  const ran = counts !== undefined && counts.completed + counts.failed > 0;
  // A job that failed after some of its lines ran (not in validation) has answers to keep: it is read as finished, its other lines sent again.
  const phase = named === 'failed' && (files || ran) ? 'finished' : (named ?? 'running');
  return {
    state,
    phase,
    counts,
    errors,
    expiresAt: typeof batch.expires_at === 'number' ? new Date(batch.expires_at * 1000) : undefined,
    filesPending: phase === 'finished' && !files && ran,
  };
}

function createdOf(batch: OpenAI.Batches.Batch): CreatedJob {
  return { id: batch.id, expiresAt: typeof batch.expires_at === 'number' ? new Date(batch.expires_at * 1000) : undefined };
}

/** The name an input file of job `key` is uploaded under: how an input orphaned by a kill is known again. */
function inputName(key: string): string {
  return `${key}.jsonl`;
}

/** Deletes the inputs uploaded for job `key` that are not the job's own (`keep`): each a process that died between upload and create left. */
async function deleteOrphanInputs(client: OpenAI, key: string, keep: string, timeoutMs: number): Promise<void> {
  for await (const file of client.files.list({ purpose: 'batch', limit: 100 }, { timeout: timeoutMs })) {
    if (Date.now() / 1000 - file.created_at > 2 * DAY_SECONDS) return;
    if (file.filename === inputName(key) && file.id !== keep && file.purpose === 'batch')
      await client.files.delete(file.id, { timeout: timeoutMs });
  }
}

interface CallOptions {
  readonly notFoundIsTransient?: boolean;
}

/**
 * A call to the batch API, its failure read as a BatchProviderError: a
 * connection error, a timeout, a 408, 409, 429 or 5xx (and, for a file the
 * job names, a 404) may pass later; anything else is the provider's refusal.
 * The SDK has retried it already (its backoff, retry-after honoured).
 */
async function providerCallTo<Value>(where: string, call: () => Promise<Value>, options: CallOptions = {}): Promise<Value> {
  try {
    return await call();
  } catch (error) {
    if (!(error instanceof OpenAI.APIError)) throw error;
    const status = error.status;
    const transient =
      error instanceof OpenAI.APIConnectionError ||
      status === undefined ||
      status === 408 ||
      status === 409 ||
      status === 429 ||
      status >= 500 ||
      (status === 404 && options.notFoundIsTransient === true);
    // The SDK says only "Connection error." or "Request timed out."; the fault under it says what happened.
    const timedOut = error instanceof OpenAI.APIConnectionTimeoutError;
    const fault = status === undefined && !timedOut ? networkFault(error) : undefined;
    const said = timedOut
      ? `no answer from ${where}: the request timed out, at each of its attempts`
      : fault === undefined
        ? `no answer: ${error.message}`
        : `no answer from ${where}: ${fault.description}`;
    const message = scrubSecrets(status === undefined ? said : `HTTP ${status}: ${error.message}`);
    // A provider that answers no attempt in time is as absent as one that refuses the connection.
    throw new BatchProviderError(message, transient, retryAfterOf(error.headers), timedOut || fault?.unreachable === true);
  }
}

/** The wait a refusal asks for, in milliseconds: retry-after-ms, else retry-after in seconds. */
function retryAfterOf(headers: Headers | undefined): number | undefined {
  const milliseconds = Number(headers?.get('retry-after-ms') ?? Number.NaN);
  if (Number.isFinite(milliseconds) && milliseconds >= 0) return milliseconds;
  const seconds = Number(headers?.get('retry-after') ?? Number.NaN);
  return Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : undefined;
}
