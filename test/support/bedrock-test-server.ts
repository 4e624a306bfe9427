import { createServer as createHttp1Server, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttp2Server, type Http2ServerRequest, type Http2ServerResponse, type Http2Session } from 'node:http2';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';
import type { ChatRequest, Oracle, OracleAnswer } from './openai-test-server.js';

/**
 * A local stand-in for Amazon Bedrock Runtime's Converse operation
 * (`POST /model/{modelId}/converse`), close enough that the AWS SDK's
 * BedrockRuntimeClient talks to it unchanged: the HTTP of one of two kinds
 * of server behind an http:// endpoint (HTTP/1.1 by default, as a proxy, a
 * gateway or LocalStack speaks, and as the judge client speaks to any
 * http:// endpoint; or HTTP/2 only, cleartext h2c, as the SDK's own handler
 * speaks), a SigV4 Authorization header whose access key is checked, the
 * Converse request and response JSON, and errors named in the
 * `x-amzn-errortype` header with a `{"message"}` body. Each request is
 * read into a chat request for the same oracles the OpenAI test server uses
 * (a forced tool becomes `tool_choice`), and the oracle's answer is written
 * back as Converse writes it: a `toolUse` block or text, and a stopReason.
 */

export type BedrockFault =
  | 'throttle'
  | 'unavailable'
  | 'not-ready'
  | 'access-denied'
  | 'model-timeout'
  | 'too-long'
  | 'slow'
  | 'garbage'
  | 'none';

export interface BedrockFaultPlan {
  /** One fault per request, for the first requests after the plan is set. */
  readonly firstFaults?: readonly BedrockFault[];
  /** Every request gets this fault (after firstFaults). */
  readonly always?: BedrockFault;
  /** Refuse a forced tool (toolChoice.tool) with the ValidationException a model without it answers. */
  readonly refuseToolChoice?: boolean;
  /** How long a 'slow' answer is held back; default 200. */
  readonly slowMs?: number;
}

export interface ConverseLogEntry {
  /** The model id from the path, decoded. */
  readonly modelId: string;
  /** The Converse request body as sent. */
  readonly body: ConverseBody;
  /** The same request as the oracle saw it. */
  readonly request: ChatRequest;
  readonly authorization: string | undefined;
  readonly status: number;
  readonly outcome: BedrockFault | 'answer' | 'refused-tool';
  /** The HTTP version the request came in: `1.1` or `2.0`. */
  readonly httpVersion: string;
}

export interface BedrockTestServer {
  /** http://127.0.0.1:PORT, for the client's `endpoint`. */
  readonly endpoint: string;
  readonly log: readonly ConverseLogEntry[];
  /** TCP connections accepted so far, requests that never parsed included (a client speaking the other HTTP). */
  connections(): number;
  setFaults(plan: BedrockFaultPlan): void;
  close(): Promise<void>;
}

const textBlock = z.object({ text: z.string() });
export const converseBodySchema = z.object({
  messages: z.array(z.object({ role: z.enum(['user', 'assistant']), content: z.array(textBlock).min(1) })).min(1),
  system: z.array(textBlock).optional(),
  inferenceConfig: z
    .object({ maxTokens: z.number().int().positive().optional(), temperature: z.number().min(0).max(1).optional() })
    .strict()
    .optional(),
  toolConfig: z
    .object({
      tools: z
        .array(
          z.object({
            toolSpec: z.object({
              name: z.string().regex(/^[a-zA-Z0-9_-]{1,64}$/),
              description: z.string().optional(),
              inputSchema: z.object({ json: z.record(z.string(), z.unknown()) }),
            }),
          }),
        )
        .min(1),
      toolChoice: z
        .object({ tool: z.object({ name: z.string() }).optional(), any: z.object({}).optional(), auto: z.object({}).optional() })
        .optional(),
    })
    .optional(),
});
export type ConverseBody = z.infer<typeof converseBodySchema>;

const ERRORS: Record<Exclude<BedrockFault, 'slow' | 'garbage' | 'none'>, { status: number; type: string; message: string }> = {
  throttle: { status: 429, type: 'ThrottlingException', message: 'Too many requests, please wait before trying again.' },
  unavailable: { status: 503, type: 'ServiceUnavailableException', message: 'Bedrock is unable to process your request.' },
  'not-ready': { status: 429, type: 'ModelNotReadyException', message: 'Model is not ready to serve inference requests.' },
  'access-denied': {
    status: 403,
    type: 'AccessDeniedException',
    message: "You don't have access to the model with the specified model ID.",
  },
  'model-timeout': { status: 408, type: 'ModelTimeoutException', message: 'Model has timed out in processing the request.' },
  'too-long': { status: 400, type: 'ValidationException', message: 'Input is too long for requested model.' },
};

/** A request and its response in either HTTP version, as far as the server uses them. */
type Incoming = IncomingMessage | Http2ServerRequest;
interface Outgoing {
  readonly destroyed: boolean;
  writeHead(status: number, headers: Record<string, string>): unknown;
  end(body: string): unknown;
}

export interface BedrockTestServerOptions {
  readonly oracle: Oracle;
  /** The key a request's SigV4 credential must name; another is answered as an unknown key. */
  readonly accessKeyId: string;
  readonly faults?: BedrockFaultPlan;
  /** The HTTP the server speaks, without TLS: `1.1` (the default, what the client speaks to an http:// endpoint) or `2` (h2c only). */
  readonly http?: '1.1' | '2';
}

export async function startBedrockTestServer(options: BedrockTestServerOptions): Promise<BedrockTestServer> {
  const log: ConverseLogEntry[] = [];
  let plan: BedrockFaultPlan = options.faults ?? {};
  let underPlan = 0;
  let oracleCalls = 0;

  async function handle(incoming: Incoming, response: Outgoing): Promise<void> {
    const path = /^\/model\/([^/]+)\/converse$/.exec(new URL(incoming.url ?? '/', 'http://127.0.0.1').pathname);
    if (incoming.method !== 'POST' || path === null)
      return sendError(response, 404, 'UnknownOperationException', `Unknown operation ${incoming.method} ${incoming.url}`);
    const parsed = converseBodySchema.safeParse(JSON.parse(await readBody(incoming)));
    if (!parsed.success)
      return sendError(
        response,
        400,
        'ValidationException',
        parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; '),
      );
    const credential =
      /^AWS4-HMAC-SHA256 Credential=([^/]+)\/\d{8}\/[a-z0-9-]+\/bedrock\/aws4_request, SignedHeaders=.+, Signature=[0-9a-f]{64}$/.exec(
        incoming.headers.authorization ?? '',
      );
    if (credential?.[1] !== options.accessKeyId)
      return sendError(response, 403, 'UnrecognizedClientException', 'The security token included in the request is invalid.');
    const body = parsed.data;
    const request = chatRequestOf(decodeURIComponent(path[1] ?? ''), body);
    const fault = plan.firstFaults?.[underPlan] ?? plan.always ?? 'none';
    underPlan += 1;
    const entry = {
      modelId: request.model,
      body,
      request,
      authorization: incoming.headers.authorization,
      status: 200,
      outcome: fault as ConverseLogEntry['outcome'],
      httpVersion: incoming.httpVersion,
    };
    log.push(entry);
    if (plan.refuseToolChoice === true && body.toolConfig?.toolChoice?.tool !== undefined) {
      Object.assign(entry, { status: 400, outcome: 'refused-tool' });
      return sendError(
        response,
        400,
        'ValidationException',
        "This model doesn't support the toolConfig.toolChoice.tool field. Remove toolConfig.toolChoice.tool and try again.",
      );
    }
    if (fault === 'slow') await new Promise((resolve) => setTimeout(resolve, plan.slowMs ?? 200));
    if (fault !== 'slow' && fault !== 'garbage' && fault !== 'none') {
      entry.status = ERRORS[fault].status;
      return sendError(response, ERRORS[fault].status, ERRORS[fault].type, ERRORS[fault].message);
    }
    if (fault === 'none' || fault === 'slow') entry.outcome = 'answer';
    const answer: OracleAnswer = fault === 'garbage' ? { text: "I think it's relevant!!" } : options.oracle(request, oracleCalls++);
    if (!response.destroyed) sendJson(response, 200, converseResponse(request, answer, log.length));
  }

  const listener = (incoming: Incoming, response: Outgoing): void => {
    handle(incoming, response).catch((error: unknown) =>
      sendError(
        response,
        500,
        'InternalServerException',
        `The test server failed: ${error instanceof Error ? error.message : String(error)}`,
      ),
    );
  };
  const listening = options.http === '2' ? await listenHttp2(listener) : await listenHttp1(listener);
  return {
    endpoint: `http://127.0.0.1:${listening.port}`,
    log,
    connections: () => listening.connections,
    setFaults: (next) => {
      plan = next;
      underPlan = 0;
    },
    close: listening.close,
  };
}

interface Listening {
  readonly port: number;
  readonly connections: number;
  close(): Promise<void>;
}

async function listenHttp1(listener: (incoming: IncomingMessage, response: ServerResponse) => void): Promise<Listening> {
  const server = createHttp1Server(listener);
  let connections = 0;
  server.on('connection', () => (connections += 1));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return {
    port,
    get connections() {
      return connections;
    },
    close,
  };
}

async function listenHttp2(listener: (incoming: Http2ServerRequest, response: Http2ServerResponse) => void): Promise<Listening> {
  const sessions = new Set<Http2Session>();
  const server = createHttp2Server(listener);
  let connections = 0;
  server.on('connection', () => (connections += 1));
  server.on('session', (session) => {
    sessions.add(session);
    session.once('close', () => sessions.delete(session));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const close = () =>
    new Promise<void>((resolve) => {
      for (const session of sessions) session.destroy();
      server.close(() => resolve());
    });
  return {
    port,
    get connections() {
      return connections;
    },
    close,
  };
}

/** The Converse request as a chat request: the system blocks first, the forced tool as tool_choice. */
export function chatRequestOf(modelId: string, body: ConverseBody): ChatRequest {
  const system = (body.system ?? []).map((block) => ({ role: 'system', content: block.text }));
  const turns = body.messages.map((message) => ({ role: message.role, content: message.content.map((block) => block.text).join('') }));
  const tool = body.toolConfig?.tools[0]?.toolSpec;
  const forced = body.toolConfig?.toolChoice?.tool?.name;
  return {
    model: modelId,
    messages: [...system, ...turns],
    ...(body.inferenceConfig?.temperature === undefined ? {} : { temperature: body.inferenceConfig.temperature }),
    ...(body.inferenceConfig?.maxTokens === undefined ? {} : { max_tokens: body.inferenceConfig.maxTokens }),
    ...(tool === undefined ? {} : { tools: [{ type: 'function', function: { name: tool.name, parameters: tool.inputSchema.json } }] }),
    ...(forced === undefined ? {} : { tool_choice: { type: 'function', function: { name: forced } } }),
  };
}

/** The oracle's answer as Converse gives it: a refusal is a guardrail's intervention, a filtered answer content_filtered. */
export function converseResponse(request: ChatRequest, answer: OracleAnswer, position: number): object {
  const forced = request.tool_choice !== undefined;
  const stopReason =
    'refusal' in answer
      ? 'guardrail_intervened'
      : answer.finishReason === 'length'
        ? 'max_tokens'
        : answer.finishReason === 'content_filter'
          ? 'content_filtered'
          : forced && 'json' in answer
            ? 'tool_use'
            : 'end_turn';
  const text = 'json' in answer ? JSON.stringify(answer.json) : 'text' in answer ? answer.text : answer.refusal;
  const toolName = (request.tool_choice as { function?: { name?: string } } | undefined)?.function?.name;
  const content =
    stopReason === 'tool_use' && 'json' in answer
      ? [{ toolUse: { toolUseId: `tooluse_test_${position}`, name: toolName, input: answer.json } }]
      : [{ text }];
  const inputTokens = Math.ceil(request.messages.map((message) => message.content ?? '').join('').length / 4);
  const outputTokens = Math.ceil(text.length / 4);
  return {
    output: { message: { role: 'assistant', content } },
    stopReason,
    usage: { inputTokens, outputTokens, totalTokens: inputTokens + outputTokens },
    metrics: { latencyMs: 5 },
  };
}

async function readBody(incoming: Incoming): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of incoming) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function sendError(response: Outgoing, status: number, type: string, message: string): void {
  sendJson(response, status, { message }, { 'x-amzn-errortype': `${type}:http://internal.amazon.com/coral/com.amazon.bedrock/` });
}

function sendJson(response: Outgoing, status: number, body: object, headers: Record<string, string> = {}): void {
  response.writeHead(status, { 'content-type': 'application/json', 'x-amzn-requestid': 'test-request', ...headers });
  response.end(JSON.stringify(body));
}
