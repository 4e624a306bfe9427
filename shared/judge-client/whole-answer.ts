import { z } from 'zod';
import { nestedErrorBody } from './error-body.js';
import type { AnswerHead } from './http-exchange.js';

export interface WholeAnswer {
  readonly response: WholeResponse;
  /** The error body as JSON, for an answer that is not ok and is JSON. */
  readonly json: unknown;
  /** The tokens the server counted (usage.total_tokens), for an ok answer that says. */
  readonly tokens: number | undefined;
}

/**
 * An answer whose body has been read, as the openai SDK reads a Response:
 * status, headers, and the body as text or JSON, from bytes held rather than
 * a stream (a stream per answer cost more than the request itself).
 */
export class WholeResponse extends Response {
  readonly #bytes: Uint8Array;
  /** The body as JSON when it was parsed already: handed out instead of parsing it again. */
  readonly #json: unknown;

  constructor(bytes: Uint8Array, init: { status: number; statusText: string; headers: [string, string][] | Headers }, json?: unknown) {
    super(null, { status: init.status, statusText: REASON_PHRASE.test(init.statusText) ? init.statusText : '', headers: init.headers });
    this.#bytes = bytes;
    this.#json = json;
  }

  // Properties, not methods, as the DOM types declare Response's.
  override readonly arrayBuffer = async (): Promise<ArrayBuffer> => this.#bytes.slice().buffer as ArrayBuffer;
  override readonly text = async (): Promise<string> => textOf(this.#bytes);
  override readonly json = async (): Promise<unknown> => this.#json ?? JSON.parse(textOf(this.#bytes));

  /** The same answer with some headers set (a string) or removed (undefined). */
  edited(changes: Record<string, string | undefined>): WholeResponse {
    const headers = new Headers(this.headers);
    for (const [name, value] of Object.entries(changes)) {
      if (value === undefined) headers.delete(name);
      else headers.set(name, value);
    }
    return new WholeResponse(this.#bytes, { status: this.status, statusText: this.statusText, headers });
  }
}

/** What fetch accepts as a status text (the HTTP reason phrase); another one is dropped rather than failing the answer. */
const REASON_PHRASE = /^[\t\x20-\x7e\x80-\xff]*$/;

const decoder = new TextDecoder();

function textOf(bytes: Uint8Array): string {
  return decoder.decode(bytes);
}

/**
 * The answer with its body read to the end (a judge's answers are small), an
 * error body in OpenAI's shape, and the tokens an ok answer says it used.
 * Reading fails as fetch fails when the connection breaks, or when the
 * attempt's timeout or the deadline aborts it.
 */
export async function readWhole(head: AnswerHead): Promise<WholeAnswer> {
  const bytes = await head.body();
  const ok = head.status >= 200 && head.status < 300;
  const parsed = parsedJson(bytes);
  const json = ok ? undefined : parsed;
  const reshaped = json === undefined ? undefined : nestedErrorBody(json);
  // The body handed on is the decoded one, whole: the headers that described it on the wire go.
  const headers = head.headers.filter(([name]) => !WIRE_HEADERS.has(name.toLowerCase()));
  const usage = ok ? usageSchema.safeParse(parsed) : undefined;
  return {
    response: ok
      ? new WholeResponse(bytes, { ...head, headers }, parsed)
      : new WholeResponse(reshaped === undefined ? bytes : Buffer.from(reshaped), { ...head, headers }),
    json,
    tokens: usage?.success === true ? usage.data.usage.total_tokens : undefined,
  };
}

const WIRE_HEADERS = new Set(['content-encoding', 'content-length', 'transfer-encoding']);

const usageSchema = z.object({ usage: z.object({ total_tokens: z.number().int().nonnegative() }) });

function parsedJson(bytes: Uint8Array): unknown {
  try {
    return JSON.parse(textOf(bytes)) as unknown;
  } catch {
    // Not JSON (an HTML error page): the SDK reports the text as it is.
    return undefined;
  }
}
