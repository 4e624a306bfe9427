import { z } from 'zod';
import { nestedErrorBody } from './error-body.js';

/** Statuses whose answers have no body, which a Response cannot be built with. */
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

export interface WholeAnswer {
  readonly response: Response;
  /** The error body as JSON, for an answer that is not ok and is JSON. */
  readonly json: unknown;
  /** The tokens the server counted (usage.total_tokens), for an ok answer that says. */
  readonly tokens: number | undefined;
}

const usageSchema = z.object({ usage: z.object({ total_tokens: z.number().int().nonnegative() }) });

/**
 * The answer with its body read to the end (a judge's answers are small), an
 * error body in OpenAI's shape, and the tokens an ok answer says it used.
 * Reading fails as fetch fails when the connection breaks, or when the
 * attempt's timeout or the deadline aborts it.
 */
export async function readWhole(response: Response): Promise<WholeAnswer> {
  const bytes = new Uint8Array(await response.arrayBuffer());
  const parsed = parsedJson(bytes);
  const json = response.ok ? undefined : parsed;
  const reshaped = json === undefined ? undefined : nestedErrorBody(json);
  const headers = new Headers(response.headers);
  // The body handed on is the decoded one, whole.
  for (const name of ['content-encoding', 'content-length', 'transfer-encoding']) headers.delete(name);
  const body = NULL_BODY_STATUSES.has(response.status) ? null : (reshaped ?? bytes);
  const usage = response.ok ? usageSchema.safeParse(parsed) : undefined;
  return {
    response: new Response(body, { status: response.status, statusText: response.statusText, headers }),
    json,
    tokens: usage?.success === true ? usage.data.usage.total_tokens : undefined,
  };
}

function parsedJson(bytes: Uint8Array): unknown {
  try {
    return JSON.parse(new TextDecoder().decode(bytes)) as unknown;
  } catch {
    // Not JSON (an HTML error page): the SDK reports the text as it is.
    return undefined;
  }
}

/** The answer with some headers set (a string) or removed (undefined). */
export function edited(response: Response, changes: Record<string, string | undefined>): Response {
  const headers = new Headers(response.headers);
  for (const [name, value] of Object.entries(changes)) {
    if (value === undefined) headers.delete(name);
    else headers.set(name, value);
  }
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}
