import OpenAI from 'openai';
import { z } from 'zod';
import { extractJson, parseAnswer, type ParsedAnswer } from './answer-parsing.js';
import { rememberSecret, scrubSecrets } from './scrub-secrets.js';

/**
 * The judge client: one chat completion per judgment, on the openai SDK, for
 * any OpenAI-compatible server. The SDK's retries handle 429, 5xx, connection
 * errors and timeouts, honouring Retry-After; this layer handles what the
 * answer says.
 *
 * Output mode, most to least strict: a JSON-schema response_format; when the
 * server refuses that (HTTP 400), a forced tool call with the schema as its
 * parameters; when it refuses tools too, the schema in the prompt and JSON in
 * the text. The mode that worked is remembered for the next calls. An answer
 * that still does not match the schema after tolerant parsing gets one repair
 * request; after that it is an error value, never a default verdict.
 */

export interface JudgeClientSettings {
  /** OpenAI-compatible base URL; undefined means the SDK's default (api.openai.com). */
  readonly baseUrl: string | undefined;
  readonly apiKey: string;
  readonly model: string;
  readonly temperature: number;
  readonly timeoutMs: number;
  /** Retries of one HTTP request by the SDK on 429, 5xx, connection errors and timeouts. */
  readonly maxRetries: number;
}

export interface ChatMessage {
  readonly role: 'system' | 'user' | 'assistant';
  readonly content: string;
}

export interface TokenUsage {
  inputTokens: number;
  outputTokens: number;
}

/** What one judgment cost: tokens, and HTTP attempts beyond the requests made (the SDK's retries). */
export interface CallCost {
  readonly usage: TokenUsage;
  readonly retries: number;
}

export type JudgeCompletion =
  | ({ ok: true; output: unknown } & CallCost)
  | ({ ok: false; error: string; transient: boolean } & CallCost);

export interface CompletionRequest {
  readonly messages: readonly ChatMessage[];
  readonly schema: z.ZodType;
  /** Name of the schema (and of the tool in tool mode): letters, digits, _ and -. */
  readonly schemaName: string;
}

export type OutputMode = 'json_schema' | 'tool' | 'text';

const CALL_HEADER = 'x-assay-attempt-key';

export class JudgeClient {
  private readonly client: OpenAI;
  private mode: OutputMode = 'json_schema';
  private readonly attemptsByCall = new Map<string, number>();
  private nextCall = 0;
  /** Set once the server answered 401: the key is wrong, every later call would be refused too, so none is made. */
  private refusal: string | undefined;

  constructor(private readonly settings: JudgeClientSettings) {
    rememberSecret(settings.apiKey);
    this.client = new OpenAI({
      apiKey: settings.apiKey,
      baseURL: settings.baseUrl,
      maxRetries: settings.maxRetries,
      timeout: settings.timeoutMs,
      // Counts HTTP attempts per judgment, so retries can be reported per judge.
      fetch: (input, init) => {
        const key = new Headers(init?.headers).get(CALL_HEADER);
        if (key !== null) this.attemptsByCall.set(key, (this.attemptsByCall.get(key) ?? 0) + 1);
        return fetch(input, init);
      },
    });
  }

  /** The output mode the next call will try first. */
  get outputMode(): OutputMode {
    return this.mode;
  }

  async complete(request: CompletionRequest): Promise<JudgeCompletion> {
    const callKey = String(this.nextCall++);
    const usage: TokenUsage & { requests: number } = { inputTokens: 0, outputTokens: 0, requests: 0 };
    const finish = <T extends object>(result: T) => {
      const attempts = this.attemptsByCall.get(callKey) ?? 0;
      this.attemptsByCall.delete(callKey);
      return { ...result, usage: { inputTokens: usage.inputTokens, outputTokens: usage.outputTokens }, retries: Math.max(0, attempts - usage.requests) };
    };
    const first = await this.send(request, request.messages, callKey, usage);
    if (!first.ok) return finish({ ok: false as const, error: first.error, transient: first.transient });
    const parsed = readAnswer(first.text, request.schema);
    if (parsed.ok) return finish({ ok: true as const, output: parsed.value });
    // One repair: show the model its answer and what is wrong with it.
    const repairMessages: ChatMessage[] = [
      ...request.messages,
      { role: 'assistant', content: first.text },
      {
        role: 'user',
        content: `That answer is not valid: ${parsed.error}. Reply again with only a JSON object that matches the required schema.`,
      },
    ];
    const second = await this.send(request, repairMessages, callKey, usage);
    if (!second.ok) return finish({ ok: false as const, error: second.error, transient: second.transient });
    const repaired = readAnswer(second.text, request.schema);
    if (repaired.ok) return finish({ ok: true as const, output: repaired.value });
    return finish({ ok: false as const, error: `invalid answer after one repair request: ${repaired.error}`, transient: false });
  }

  /** One completion in the current mode, stepping down a mode when the server refuses it. */
  private async send(
    request: CompletionRequest,
    messages: readonly ChatMessage[],
    callKey: string,
    usage: TokenUsage & { requests: number },
  ): Promise<{ ok: true; text: string } | { ok: false; error: string; transient: boolean }> {
    for (;;) {
      if (this.refusal !== undefined) return { ok: false, error: this.refusal, transient: false };
      const mode = this.mode;
      usage.requests++;
      try {
        const completion = await this.client.chat.completions.create(this.body(request, messages, mode), {
          headers: { [CALL_HEADER]: callKey },
        });
        usage.inputTokens += completion.usage?.prompt_tokens ?? 0;
        usage.outputTokens += completion.usage?.completion_tokens ?? 0;
        const message = completion.choices[0]?.message;
        const toolArguments = message?.tool_calls?.find((call) => call.type === 'function')?.function.arguments;
        const text = (mode === 'tool' ? toolArguments : undefined) ?? message?.content ?? toolArguments ?? '';
        return { ok: true, text };
      } catch (error) {
        if (error instanceof OpenAI.BadRequestError && mode !== 'text' && !isPromptTooLong(error)) {
          this.mode = mode === 'json_schema' ? 'tool' : 'text';
          continue;
        }
        const failure = describeFailure(error, this.settings.apiKey);
        if (failure.keyRefused) this.refusal = failure.error;
        return { ok: false, error: failure.error, transient: failure.transient };
      }
    }
  }

  private body(request: CompletionRequest, messages: readonly ChatMessage[], mode: OutputMode) {
    const schema = jsonSchemaOf(request.schema);
    const base = { model: this.settings.model, temperature: this.settings.temperature };
    if (mode === 'json_schema') {
      return {
        ...base,
        messages: [...messages],
        response_format: { type: 'json_schema' as const, json_schema: { name: request.schemaName, schema, strict: true } },
      };
    }
    if (mode === 'tool') {
      return {
        ...base,
        messages: [...messages],
        tools: [{ type: 'function' as const, function: { name: request.schemaName, description: 'Record the verdict', parameters: schema } }],
        tool_choice: { type: 'function' as const, function: { name: request.schemaName } },
      };
    }
    const instruction = `Reply with only a JSON object that matches this JSON Schema:\n${JSON.stringify(schema)}`;
    const [first, ...rest] = messages;
    const withSchema: ChatMessage[] =
      first?.role === 'system' ? [{ role: 'system', content: `${first.content}\n\n${instruction}` }, ...rest] : [{ role: 'system', content: instruction }, ...messages];
    return { ...base, messages: withSchema };
  }
}

/** A 400 for an over-long prompt is not a refusal of the output mode: stepping down would not help. */
function isPromptTooLong(error: InstanceType<typeof OpenAI.BadRequestError>): boolean {
  return /context length|context window|maximum context|too long|too many tokens/i.test(error.message);
}

function readAnswer(text: string, schema: z.ZodType): ParsedAnswer<unknown> {
  const json = extractJson(text);
  return json.ok ? parseAnswer(json.value, schema) : json;
}

/** The JSON schema sent to the server (without the $schema key, which some servers reject). */
export function jsonSchemaOf(schema: z.ZodType): Record<string, unknown> {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema) as Record<string, unknown>;
  return rest;
}

/**
 * An SDK failure as an error value. Failures that outlived the SDK's retries
 * (rate limits, server errors, timeouts, connection errors) are transient: the
 * pipeline may try the case again later. The rest (unknown model, refused
 * credentials) are not; a 401 or 403 says how to fix it. Only a 401 is
 * `keyRefused` (the key itself is wrong): a 403 may be about one request (a
 * firewall rule, a content policy), so it does not stop the later calls.
 * The server's text goes through scrubSecrets, since some gateways repeat the
 * key they were sent in their error body.
 */
function describeFailure(error: unknown, apiKey: string): { error: string; transient: boolean; keyRefused: boolean } {
  if (error instanceof OpenAI.APIConnectionTimeoutError) return { error: 'the judge call timed out', transient: true, keyRefused: false };
  if (error instanceof OpenAI.APIConnectionError) {
    return { error: scrubSecrets(`cannot reach the judge server: ${error.message}`, [apiKey]), transient: true, keyRefused: false };
  }
  if (error instanceof OpenAI.APIError) {
    const status = error.status;
    if (status === 401 || status === 403) {
      const text = `the judge server refused the credentials (HTTP ${status}: ${error.message.replace(/^\d{3} /, '')}); check OPENAI_API_KEY and OPENAI_BASE_URL`;
      return { error: scrubSecrets(text, [apiKey]), transient: false, keyRefused: status === 401 };
    }
    const transient = status === undefined || status === 408 || status === 409 || status === 429 || status >= 500;
    return { error: scrubSecrets(`judge server answered ${status ?? 'an error'}: ${error.message}`, [apiKey]), transient, keyRefused: false };
  }
  throw error;
}
