import { z } from 'zod';

/**
 * The error object of a judge server's error answer, whatever its shape.
 * OpenAI nests it: `{"error": {"message", "type", "param", "code"}}`, which
 * is all the openai SDK reads. Other OpenAI-compatible servers do not:
 *
 * - vLLM (before its errors were nested): `{"object": "error", "message",
 *   "type": "BadRequestError", "param", "code": 400}`, the fields at the top;
 * - FastAPI-based gateways: `{"detail": "text"}`, or for a request their
 *   schema rejects, `{"detail": [{"loc": ["body", "response_format", "type"],
 *   "msg", "type"}]}`;
 * - Ollama and others: `{"error": "text"}`.
 *
 * Read in the OpenAI shape, the SDK sees none of these and reports "422
 * status code (no body)", so nothing downstream (the mode ladder, the
 * parameter and content-filter checks, the spent quota) can tell what the
 * server said. Every one of them becomes the nested object here, once, and
 * the rest of the client reads only that.
 */
export interface ServerError {
  readonly message: string;
  readonly type: string | null;
  readonly param: string | null;
  readonly code: string | number | null;
}

const field = z.string().nullish().catch(undefined);
const code = z.union([z.string(), z.number()]).nullish().catch(undefined);

const nested = z.object({ error: z.object({ message: z.unknown(), type: field, param: field, code }) });
const nestedText = z.object({ error: z.string() });
const topLevel = z.object({ message: z.string(), type: field, param: field, code });
const validationIssue = z.object({ loc: z.array(z.union([z.string(), z.number()])).catch([]), msg: z.string().catch('is not valid') });
const detail = z.object({ detail: z.union([z.string(), z.array(validationIssue).min(1)]) });

/** The server's error, read from a body in any of the shapes above; undefined when the body says nothing readable. */
export function serverErrorOf(body: unknown): ServerError | undefined {
  const asNested = nested.safeParse(body);
  if (asNested.success) {
    const { message, type, param, code: said } = asNested.data.error;
    return serverError(typeof message === 'string' ? message : (JSON.stringify(message) ?? ''), type, param, said);
  }
  const asText = nestedText.safeParse(body);
  if (asText.success) return serverError(asText.data.error);
  const asTopLevel = topLevel.safeParse(body);
  if (asTopLevel.success) return serverError(asTopLevel.data.message, asTopLevel.data.type, asTopLevel.data.param, asTopLevel.data.code);
  const asDetail = detail.safeParse(body);
  if (!asDetail.success) return undefined;
  const said = asDetail.data.detail;
  if (typeof said === 'string') return serverError(said);
  // The request field each issue is about, without FastAPI's leading "body": what OpenAI calls `param`.
  const fields = said.map((issue) => (issue.loc[0] === 'body' ? issue.loc.slice(1) : issue.loc).join('.'));
  const message = said.map((issue, index) => (fields[index] === '' ? issue.msg : `${fields[index]}: ${issue.msg}`)).join('; ');
  return serverError(message, undefined, fields[0] === '' ? undefined : fields[0]);
}

/**
 * The body to hand the SDK instead of `body`: the same error in the nested
 * shape it reads; undefined when `body` is in that shape already, or says
 * nothing readable.
 */
export function nestedErrorBody(body: unknown): string | undefined {
  if (nested.safeParse(body).success) return undefined;
  const error = serverErrorOf(body);
  return error === undefined ? undefined : JSON.stringify({ error });
}

function serverError(message: string, type?: string | null, param?: string | null, said?: string | number | null): ServerError {
  return { message, type: type ?? null, param: param ?? null, code: said ?? null };
}
