import { z } from 'zod';

/**
 * How a test judge turns one chat completion request and its oracle's answer
 * into what the endpoint sends back. Shared by the online test server
 * (openai-test-server.ts) and the batch one (openai-batch-server.ts), so a
 * run judged in a batch and a run judged online against the same oracle get
 * the same bodies.
 */

/** Content must be a string or null: content parts are answered 400, since a judge sends plain text. */
export interface ChatMessage {
  role: string;
  content: string | null;
  tool_calls?: unknown;
  tool_call_id?: string;
}

export interface ChatRequest {
  model: string;
  messages: ChatMessage[];
  temperature?: number;
  response_format?: unknown;
  tools?: unknown[];
  tool_choice?: unknown;
  max_tokens?: number;
  max_completion_tokens?: number;
}

/**
 * What the oracle decides for one request: a JSON-able answer (sent as the
 * message content, or as tool-call arguments when the request forces a tool),
 * raw text content, or a refusal (`message.refusal`, content null). Any of
 * them may set the finish_reason, the model the response reports (default:
 * the requested one) and its `system_fingerprint` (default: none sent).
 */
export type OracleAnswer = ({ json: unknown } | { text: string } | { refusal: string }) & {
  finishReason?: 'stop' | 'length' | 'content_filter';
  reportedModel?: string;
  systemFingerprint?: string;
};
/** callIndex counts oracle consultations (0, 1, …), so faulted requests do not shift it. */
export type Oracle = (request: ChatRequest, callIndex: number) => OracleAnswer;

/** The features a server may refuse with a 400 before the oracle is asked, as servers without them do. */
export interface RequestRefusals {
  /** Reject requests that carry response_format (all, or of the listed types) with a 400 naming `response_format` (as servers without structured output do). */
  refuseResponseFormat?: boolean | readonly ('json_schema' | 'json_object')[];
  /** Reject requests that carry tools with a 400. */
  refuseTools?: boolean;
  /** The status of those refusals: 400 (OpenAI) or 422 (the validation status of some servers). Default 400. */
  refusalStatus?: 400 | 422;
  /**
   * Reject requests that carry these parameters, as OpenAI does for reasoning
   * models: `temperature` (400 "Unsupported value", param temperature) and
   * `max_tokens` (400 "Unsupported parameter ... Use 'max_completion_tokens'").
   */
  refuseParameters?: readonly ('temperature' | 'max_tokens')[];
}

export interface Refusal {
  readonly status: number;
  readonly message: string;
  readonly param: string | null;
  readonly code: string | null;
}

export interface ChatCompletionAnswer {
  readonly status: 200;
  readonly body: object;
}

const chatRequestSchema: z.ZodType<ChatRequest> = z
  .object({
    model: z.string(),
    messages: z.array(
      z.object({ role: z.string(), content: z.string().nullable().default(null), tool_call_id: z.string().optional() }).loose(),
    ),
    temperature: z.number().optional(),
    tools: z.array(z.unknown()).optional(),
  })
  .loose();

/** A request body already read as JSON: the request, or the wording of what is wrong with it. */
export function parseChatRequest(value: unknown): ChatRequest | string {
  const result = chatRequestSchema.safeParse(value);
  if (result.success) return result.data;
  return result.error.issues.map((issue) => `${issue.path.join('.') || 'body'}: ${issue.message}`).join('; ');
}

/** The refusal the plan makes of this request, before any oracle is asked; undefined when it passes. */
export function refusalOf(request: ChatRequest, refusals: RequestRefusals): Refusal | undefined {
  const status = refusals.refusalStatus ?? 400;
  for (const parameter of refusals.refuseParameters ?? []) {
    if (request[parameter] === undefined) continue;
    return parameter === 'temperature'
      ? {
          status: 400,
          message: `Unsupported value: 'temperature' does not support ${request.temperature} with this model. Only the default (1) value is supported.`,
          param: 'temperature',
          code: 'unsupported_value',
        }
      : {
          status: 400,
          message: "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.",
          param: 'max_tokens',
          code: 'unsupported_parameter',
        };
  }
  const format = request.response_format as { type?: unknown } | undefined | null;
  const formatType = typeof format?.type === 'string' ? format.type : 'of this kind';
  const refusedFormats = refusals.refuseResponseFormat;
  if (
    format !== undefined &&
    format !== null &&
    (refusedFormats === true || (Array.isArray(refusedFormats) && refusedFormats.includes(formatType)))
  ) {
    return { status, message: `response_format ${formatType} is not supported by this server`, param: 'response_format', code: null };
  }
  if (refusals.refuseTools && (request.tools?.length ?? 0) > 0)
    return { status, message: 'tools are not supported by this server', param: 'tools', code: null };
  return undefined;
}

/**
 * The 200 answer to a request: the oracle's JSON or text as the message content, or as the
 * arguments of the tool call the request forces; a refusal as `message.refusal`. `position`
 * numbers the completion's and the tool call's ids, so each answer of a server has its own.
 */
export function chatCompletionAnswer(request: ChatRequest, answer: OracleAnswer, position: number): ChatCompletionAnswer {
  const text = 'json' in answer ? (JSON.stringify(answer.json) ?? 'null') : 'text' in answer ? answer.text : '';
  const tool = forcedToolName(request);
  const toolCalls = [{ id: `call_test_${position}`, type: 'function', function: { name: tool, arguments: text } }];
  const message =
    'refusal' in answer
      ? { role: 'assistant', content: null, refusal: answer.refusal }
      : tool === undefined
        ? { role: 'assistant', content: text, refusal: null }
        : { role: 'assistant', content: null, refusal: null, tool_calls: toolCalls };
  const finishReason = answer.finishReason ?? (tool === undefined || 'refusal' in answer ? 'stop' : 'tool_calls');
  const promptTokens = estimatePromptTokens(request);
  const completionTokens = estimateTokens(text);
  const body = {
    id: `chatcmpl-test-${position}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: answer.reportedModel ?? request.model,
    ...(answer.systemFingerprint === undefined ? {} : { system_fingerprint: answer.systemFingerprint }),
    choices: [{ index: 0, message, finish_reason: finishReason, logprobs: null }],
    usage: { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens },
  };
  return { status: 200, body };
}

/** The prompt_tokens of the answer's usage; the batch server counts a batch's enqueued tokens with it too. */
export function estimatePromptTokens(request: ChatRequest): number {
  const prompt = request.messages.map((entry) => (entry.content ?? '') + (JSON.stringify(entry.tool_calls) ?? ''));
  return estimateTokens(prompt.join(''));
}

/** A rough, deterministic count: about four characters a token for English text. */
function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/** The function the request obliges the model to call: named in tool_choice, or the only tool under 'required'. */
function forcedToolName(request: ChatRequest): string | undefined {
  const tools = request.tools ?? [];
  if (tools.length === 0) return undefined;
  if (request.tool_choice === 'required' && tools.length === 1) return functionName(tools[0]);
  return functionName(request.tool_choice);
}

function functionName(value: unknown): string | undefined {
  const inner = typeof value === 'object' && value !== null ? (value as { function?: unknown }).function : undefined;
  const name = typeof inner === 'object' && inner !== null ? (inner as { name?: unknown }).name : undefined;
  return typeof name === 'string' ? name : undefined;
}
