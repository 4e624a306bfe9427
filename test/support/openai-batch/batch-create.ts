import { BatchJob } from './batch-job.js';
import { invalid, type ApiRequest, type Reply } from './api-reply.js';
import type { RouteContext } from './batch-routes.js';

/**
 * `POST batches`: a refusal the plan asks for, or the create checked as
 * OpenAI checks it (the input file, endpoint, window and metadata) and its
 * batch stored, validating.
 */

/** An HTTP refusal of `POST /batches` (e.g. 429), for `times` creates or all of them. */
export interface CreateRefusal {
  readonly status: number;
  readonly code: string;
  readonly message: string;
  /** Default 'invalid_request_error'. */
  readonly type?: string;
  readonly times?: number;
}

const OPENAI_URLS = ['/v1/chat/completions'];
const AZURE_URLS = ['/v1/chat/completions', '/chat/completions'];

export function createBatch(request: ApiRequest, context: RouteContext): Reply {
  const refusal = context.createRefusal();
  if (refusal !== undefined)
    return {
      ...invalid(refusal.status, refusal.message, null, refusal.code, refusal.type),
      headers: { 'retry-after-ms': '5', 'retry-after': '0' },
    };
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(request.body.toString('utf8')) as Record<string, unknown>;
  } catch {
    return invalid(400, 'We could not parse the JSON body of your request. Expected a JSON object.', null, null);
  }
  const { input_file_id: inputFileId, endpoint, completion_window: completionWindow, metadata } = body;
  const input = typeof inputFileId === 'string' ? context.files.get(inputFileId) : undefined;
  if (input === undefined)
    return invalid(400, `Invalid 'input_file_id': no file with id ${JSON.stringify(inputFileId)}.`, 'input_file_id', 'invalid_value');
  if (input.info.purpose !== 'batch')
    return invalid(400, "Invalid 'input_file_id': the file's purpose must be 'batch'.", 'input_file_id', 'invalid_value');
  const urls = request.azure ? AZURE_URLS : OPENAI_URLS;
  if (typeof endpoint !== 'string' || !urls.includes(endpoint))
    return invalid(400, `Invalid 'endpoint': this test server runs batches of ${urls.join(' or ')} only.`, 'endpoint', 'invalid_value');
  if (completionWindow !== '24h')
    return invalid(400, "Invalid 'completion_window': only '24h' is supported.", 'completion_window', 'invalid_value');
  const checkedMetadata = metadataOf(metadata);
  if (typeof checkedMetadata === 'string') return invalid(400, checkedMetadata, 'metadata', 'invalid_value');
  const id = `batch_test${context.batches.size + 1}`;
  const job = new BatchJob(
    id,
    {
      inputFileId: input.info.id,
      endpoint,
      lineUrls: request.azure ? AZURE_URLS : [endpoint],
      completionWindow,
      metadata: checkedMetadata,
      apiKey: request.apiKey,
      windowSeconds: context.windowSeconds(),
    },
    context.job.now(),
  );
  context.batches.set(id, job);
  context.created(input.data);
  return { status: 200, body: job.toObject(context.job.faults()) };
}

/** OpenAI's limits: at most 16 pairs, keys up to 64 characters, string values up to 512. */
function metadataOf(value: unknown): Record<string, string> | null | string {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'object' || Array.isArray(value)) return "Invalid 'metadata': expected an object of strings.";
  const entries = Object.entries(value);
  if (entries.length > 16) return "Invalid 'metadata': at most 16 key-value pairs.";
  for (const [key, entry] of entries) {
    if (key.length > 64 || typeof entry !== 'string' || entry.length > 512)
      return `Invalid 'metadata.${key}': keys up to 64 characters, string values up to 512.`;
  }
  return Object.fromEntries(entries) as Record<string, string>;
}
