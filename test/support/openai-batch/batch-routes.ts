import { BatchJob, type JobContext } from './batch-job.js';
import type { FileStore, StoredFile } from './batch-files.js';
import { parseMultipartForm } from './multipart-form.js';

/**
 * The Files and Batches API of the test batch server, below its prefix
 * (`/v1`, `/openai/v1`, `/openai`): each route a function from the request
 * to a reply, so the HTTP side (auth, logging, sending) stays in one place.
 */
export interface Reply {
  readonly status: number;
  /** JSON, or the raw bytes of a file's content. */
  readonly body: object | Buffer;
  readonly headers?: Readonly<Record<string, string>>;
}

export interface ApiRequest {
  readonly method: string;
  /** The path below the prefix, e.g. `/files/file-test1/content`. */
  readonly resource: string;
  readonly query: URLSearchParams;
  readonly body: Buffer;
  readonly contentType: string | undefined;
  /** Azure names the endpoint `/chat/completions` as well as `/v1/chat/completions`. */
  readonly azure: boolean;
}

/** An HTTP refusal of `POST /batches` (e.g. 429), for `times` creates or all of them. */
export interface CreateRefusal {
  readonly status: number;
  readonly code: string;
  readonly message: string;
  /** Default 'invalid_request_error'. */
  readonly type?: string;
  readonly times?: number;
}

export interface RouteContext {
  readonly files: FileStore;
  readonly batches: Map<string, BatchJob>;
  readonly job: JobContext;
  /** Whether `GET /batches/{id}` steps the batch before answering (the default progression). */
  readonly stepOnRetrieve: boolean;
  /** The refusal this create gets, if the fault plan still refuses creates. */
  createRefusal(): CreateRefusal | undefined;
}

const OPENAI_URLS = ['/v1/chat/completions'];
const AZURE_URLS = ['/v1/chat/completions', '/chat/completions'];

/** The reply, or undefined when no route matches (the server answers 404 in the family's words). */
export function routeBatchApi(request: ApiRequest, context: RouteContext): Reply | undefined {
  const [collection, id, action, ...rest] = request.resource.split('/').slice(1).map(decodeURIComponent);
  if (rest.length > 0) return undefined;
  const route = `${request.method} ${collection ?? ''}${id === undefined ? '' : '/{id}'}${action === undefined ? '' : `/${action}`}`;
  switch (route) {
    case 'POST files':
      return uploadFile(request, context.files);
    case 'GET files':
      return {
        status: 200,
        body: page(
          context.files.newestFirst().map((file) => file.info),
          request.query,
          10_000,
        ),
      };
    case 'GET files/{id}':
      return withFile(context.files, id, (file) => ({ status: 200, body: file.info }));
    case 'GET files/{id}/content':
      return withFile(context.files, id, (file) => ({ status: 200, body: file.data }));
    case 'DELETE files/{id}':
      return withFile(context.files, id, (file) => {
        context.files.delete(file.info.id);
        return { status: 200, body: { id: file.info.id, object: 'file', deleted: true } };
      });
    case 'POST batches':
      return createBatch(request, context);
    case 'GET batches':
      return {
        status: 200,
        body: page(
          [...context.batches.values()].reverse().map((job) => job.toObject()),
          request.query,
          100,
        ),
      };
    case 'GET batches/{id}':
      return withBatch(context, id, (job) => {
        if (context.stepOnRetrieve) job.step(context.job);
        return { status: 200, body: job.toObject() };
      });
    case 'POST batches/{id}/cancel':
      return withBatch(context, id, (job) => {
        const refused = job.cancel(context.job.now());
        return refused === undefined ? { status: 200, body: job.toObject() } : invalid(409, refused, null, null);
      });
    default:
      return undefined;
  }
}

export function invalid(status: number, message: string, param: string | null, code: string | null, type = 'invalid_request_error'): Reply {
  return { status, body: { error: { message, type, param, code } } };
}

function uploadFile(request: ApiRequest, files: FileStore): Reply {
  const parts = parseMultipartForm(request.body, request.contentType);
  if (typeof parts === 'string') return invalid(400, parts, null, null);
  const purpose = parts.find((part) => part.name === 'purpose')?.data.toString('utf8');
  const file = parts.find((part) => part.name === 'file' && part.filename !== undefined);
  if (purpose === undefined) return invalid(400, "Missing required parameter: 'purpose'.", 'purpose', 'missing_required_parameter');
  // OpenAI takes other purposes; this server stores batch inputs only, so anything else is a client's mistake.
  if (purpose !== 'batch')
    return invalid(
      400,
      `Invalid value for 'purpose': this test server takes 'batch' files only, got '${purpose}'.`,
      'purpose',
      'invalid_value',
    );
  if (file === undefined) return invalid(400, "Missing required parameter: 'file'.", 'file', 'missing_required_parameter');
  return { status: 200, body: files.add(file.filename ?? 'file', 'batch', file.data).info };
}

function createBatch(request: ApiRequest, context: RouteContext): Reply {
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
    },
    context.job.now(),
  );
  context.batches.set(id, job);
  return { status: 200, body: job.toObject() };
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

/** A cursor page, as the API lists: `limit` items after the item `after`, newest first. */
function page<Item extends { id: string }>(items: readonly Item[], query: URLSearchParams, maxLimit: number): object {
  const limit = Math.min(maxLimit, Math.max(1, Number(query.get('limit') ?? 20) || 20));
  const after = query.get('after');
  const start = after === null ? 0 : items.findIndex((item) => item.id === after) + 1;
  const data = items.slice(start, start + limit);
  return { object: 'list', data, first_id: data[0]?.id ?? null, last_id: data.at(-1)?.id ?? null, has_more: start + limit < items.length };
}

function withFile(files: FileStore, id: string | undefined, reply: (file: StoredFile) => Reply): Reply {
  const file = id === undefined ? undefined : files.get(id);
  return file === undefined ? invalid(404, `No such File object: ${id ?? ''}`, 'id', null) : reply(file);
}

function withBatch(context: RouteContext, id: string | undefined, reply: (job: BatchJob) => Reply): Reply {
  const job = id === undefined ? undefined : context.batches.get(id);
  return job === undefined ? invalid(404, `No batch found with id '${id ?? ''}'.`, 'batch_id', null) : reply(job);
}
