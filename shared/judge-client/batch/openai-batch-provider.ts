import OpenAI, { AzureOpenAI, toFile } from 'openai';
import { z } from 'zod';
import { rememberSecret } from '../../secrets/scrub-secrets.js';
import type { AzureDeployment } from '../judge-client.js';
import type { BatchAnswer, BatchRequest } from './batch-request.js';
import type { BatchJobStatus, BatchLimits, BatchPhase, BatchProvider } from './batch-provider.js';

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

/** One line of an output or error file. */
const resultLineSchema = z.object({
  custom_id: z.string(),
  response: z.object({ status_code: z.number().int(), body: z.unknown() }).nullish(),
  error: z.object({ code: z.string().nullish(), message: z.string().nullish() }).nullish(),
});

export function openAiBatchProvider(target: OpenAiBatchTarget): BatchProvider {
  rememberSecret(target.apiKey);
  const client = clientOf(target);
  const name =
    target.kind === 'openai'
      ? `the OpenAI batch API at ${new URL(target.baseUrl ?? 'https://api.openai.com/v1').host}`
      : `Azure OpenAI deployment ${target.azure.deployment}`;
  return {
    name,
    limits: target.kind === 'openai' ? OPENAI_LIMITS : AZURE_LIMITS,
    line: (request: BatchRequest) => JSON.stringify({ custom_id: request.id, method: 'POST', url: ENDPOINT, body: request.body }),
    async find(key) {
      // Newest first: a job created moments ago by a process that died is on the first page or two.
      for await (const batch of client.batches.list({ limit: 100 })) {
        if (batch.metadata?.[METADATA_KEY] === key) return batch.id;
        if (Date.now() / 1000 - batch.created_at > 2 * 24 * 3600) return undefined;
      }
      return undefined;
    },
    async create(key, input) {
      const file = await client.files.create({ file: await toFile(Buffer.from(input, 'utf8'), `${key}.jsonl`), purpose: 'batch' });
      const batch = await client.batches.create({
        input_file_id: file.id,
        endpoint: ENDPOINT,
        completion_window: '24h',
        metadata: { [METADATA_KEY]: key },
      });
      return batch.id;
    },
    async status(jobId) {
      const batch = await client.batches.retrieve(jobId);
      return statusOf(batch);
    },
    async *answers(jobId) {
      const batch = await client.batches.retrieve(jobId);
      for (const fileId of [batch.output_file_id, batch.error_file_id]) {
        if (fileId === undefined || fileId === null) continue;
        const text = await (await client.files.content(fileId)).text();
        for (const line of text.split('\n')) {
          if (line.trim() === '') continue;
          const parsed = resultLineSchema.parse(JSON.parse(line));
          yield { requestId: parsed.custom_id, answer: answerOf(parsed) };
        }
      }
    },
    async cancel(jobId) {
      await client.batches.cancel(jobId);
    },
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
    code: error.code ?? 'error',
    message: error.message ?? '',
    line: error.line ?? undefined,
  }));
  return { state: batch.status, phase: PHASES[batch.status.toLowerCase()] ?? 'running', counts, errors };
}

function answerOf(line: z.infer<typeof resultLineSchema>): BatchAnswer['answer'] {
  if (line.response !== undefined && line.response !== null)
    return { kind: 'response', status: line.response.status_code, body: line.response.body };
  return {
    kind: 'line-failed',
    code: line.error?.code ?? 'not_run',
    message: line.error?.message ?? 'the job gave no answer for the request',
  };
}
