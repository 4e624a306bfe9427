import { z } from 'zod';
import type { HeaderReader } from '../judge-rate/rate-headers.js';
import { nestedErrorBody } from './error-body.js';
import type { AnswerHead } from './http-exchange.js';

/** An answer's headers, read as fetch's Headers reads them (any case; a name sent twice is its values joined by ", "). */
export class AnswerHeaders implements HeaderReader {
  private readonly byName = new Map<string, string>();

  constructor(pairs: readonly (readonly [string, string])[]) {
    for (const [name, value] of pairs) {
      const key = name.toLowerCase();
      const had = this.byName.get(key);
      this.byName.set(key, had === undefined ? value : `${had}, ${value}`);
    }
  }

  get(name: string): string | null {
    return this.byName.get(name.toLowerCase()) ?? null;
  }

  /** Name and value pairs, names in lower case. */
  entries(): [string, string][] {
    return [...this.byName];
  }

  /** The same headers with some set (a string) or removed (undefined). */
  edited(changes: Readonly<Record<string, string | undefined>>): AnswerHeaders {
    const pairs = new Map(this.byName);
    for (const [name, value] of Object.entries(changes)) {
      if (value === undefined) pairs.delete(name.toLowerCase());
      else pairs.set(name.toLowerCase(), value);
    }
    return new AnswerHeaders([...pairs]);
  }
}

/**
 * An answer read to its end (a judge's answers are small): its status,
 * headers and body, the body as JSON when it is JSON, and for an error
 * answer the body in OpenAI's shape. A plain object rather than a fetch
 * Response, whose body as a stream cost 0.12 ms of CPU an answer, more than
 * half of the request itself; the SDK gets one (`toResponse`) only for the
 * answers it handles.
 */
export class WholeAnswer {
  constructor(
    readonly status: number,
    readonly statusText: string,
    readonly headers: AnswerHeaders,
    /** The body as the SDK reads it: for an error answer in another shape than OpenAI's, the same error in OpenAI's. */
    readonly bytes: Uint8Array,
    /** The body as JSON (as the server sent it); undefined when it is not JSON. */
    readonly json: unknown,
  ) {}

  get ok(): boolean {
    return this.status >= 200 && this.status < 300;
  }

  /** The tokens the server counted (usage.total_tokens), for an ok answer that says. */
  get tokens(): number | undefined {
    if (!this.ok) return undefined;
    const usage = usageSchema.safeParse(this.json);
    return usage.success ? usage.data.usage.total_tokens : undefined;
  }

  /** The same answer with some headers set (a string) or removed (undefined). */
  edited(changes: Readonly<Record<string, string | undefined>>): WholeAnswer {
    return new WholeAnswer(this.status, this.statusText, this.headers.edited(changes), this.bytes, this.json);
  }

  /** The answer as the SDK reads a fetch Response. */
  toResponse(): Response {
    return new WholeResponse(this.bytes, {
      status: this.status,
      statusText: REASON_PHRASE.test(this.statusText) ? this.statusText : '',
      headers: this.headers.entries(),
    });
  }
}

const usageSchema = z.object({ usage: z.object({ total_tokens: z.number().int().nonnegative() }) });

/** A Response over bytes held rather than a stream. */
class WholeResponse extends Response {
  readonly #bytes: Uint8Array;

  constructor(bytes: Uint8Array, init: { status: number; statusText: string; headers: [string, string][] }) {
    super(null, init);
    this.#bytes = bytes;
  }

  // Properties, not methods, as the DOM types declare Response's.
  override readonly arrayBuffer = async (): Promise<ArrayBuffer> => this.#bytes.slice().buffer as ArrayBuffer;
  override readonly text = async (): Promise<string> => textOf(this.#bytes);
  override readonly json = async (): Promise<unknown> => JSON.parse(textOf(this.#bytes));
}

/** What fetch accepts as a status text (the HTTP reason phrase); another one is dropped rather than failing the answer. */
const REASON_PHRASE = /^[\t\x20-\x7e\x80-\xff]*$/;

/** The headers that described the body on the wire: the body held is the decoded one, whole. */
const WIRE_HEADERS = new Set(['content-encoding', 'content-length', 'transfer-encoding']);

const decoder = new TextDecoder();

function textOf(bytes: Uint8Array): string {
  return decoder.decode(bytes);
}

/**
 * The answer with its body read to the end. Reading fails as fetch fails
 * when the connection breaks, or when the attempt's timeout or the deadline
 * aborts it.
 */
export async function readWhole(head: AnswerHead): Promise<WholeAnswer> {
  const bytes = await head.body();
  const json = parsedJson(bytes);
  const ok = head.status >= 200 && head.status < 300;
  const reshaped = ok || json === undefined ? undefined : nestedErrorBody(json);
  const headers = new AnswerHeaders(head.headers.filter(([name]) => !WIRE_HEADERS.has(name.toLowerCase())));
  return new WholeAnswer(head.status, head.statusText, headers, reshaped === undefined ? bytes : Buffer.from(reshaped), json);
}

function parsedJson(bytes: Uint8Array): unknown {
  try {
    return JSON.parse(textOf(bytes)) as unknown;
  } catch {
    // Not JSON (an HTML error page): the SDK reports the text as it is.
    return undefined;
  }
}
