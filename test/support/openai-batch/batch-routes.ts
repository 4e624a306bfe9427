import { invalid, type ApiRequest, type Reply } from './api-reply.js';
import { createBatch, type CreateRefusal } from './batch-create.js';
import type { BatchJob } from './batch-job.js';
import type { FileStore, StoredFile } from './batch-files.js';
import type { JobContext } from './job-context.js';
import { parseMultipartForm } from './multipart-form.js';
import { routeNameOf } from './route-names.js';

/**
 * The Files and Batches API of the test batch server, below its prefix
 * (`/v1`, `/openai/v1`, `/openai`): each route a function from the request
 * to a reply, so the HTTP side (auth, logging, sending) stays in one place.
 */
export interface RouteContext {
  readonly files: FileStore;
  readonly batches: Map<string, BatchJob>;
  readonly job: JobContext;
  /** Whether `GET /batches/{id}` steps the batch before answering (the default progression). */
  readonly stepOnRetrieve: boolean;
  /** The refusal this create gets, if the fault plan still refuses creates. */
  createRefusal(): CreateRefusal | undefined;
  /** The completion window, in seconds, of a batch created now. */
  windowSeconds(): number;
  /** Told the input of each batch created. */
  created(input: Buffer): void;
}

/** The reply, or undefined when no route matches (the server answers 404 in the family's words). */
export function routeBatchApi(request: ApiRequest, context: RouteContext): Reply | undefined {
  const [, id] = request.resource.split('/').slice(1).map(decodeURIComponent);
  const faults = context.job.faults();
  switch (routeNameOf(request.method, request.resource)) {
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
          [...context.batches.values()].reverse().map((job) => job.toObject(faults)),
          request.query,
          100,
        ),
      };
    case 'GET batches/{id}':
      return withBatch(context, id, (job) => {
        if (context.stepOnRetrieve) job.step(context.job);
        const body = job.toObject(faults);
        job.retrieved();
        return { status: 200, body };
      });
    case 'POST batches/{id}/cancel':
      return withBatch(context, id, (job) => {
        const refused = job.cancel(context.job.now());
        return refused === undefined ? { status: 200, body: job.toObject(faults) } : invalid(409, refused, null, null);
      });
    default:
      return undefined;
  }
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
