import OpenAI from 'openai';
import type { ChatCompletion, ChatCompletionCreateParamsNonStreaming } from 'openai/resources/chat/completions';
import type { JudgeTransport, TrackedCall } from './bounded-retry-fetch.js';
import type { WholeAnswer } from './whole-answer.js';

/**
 * A chat completion whose first attempt skips the openai SDK. The SDK's
 * work around one request (its headers rebuilt for each, its abort
 * controller, its log lines formatted whether logged or not, the Response it
 * reads) cost about 80 µs of CPU, near half of what node:http takes for the
 * request itself (docs/benchmarks.md); most judgments are answered at the
 * first attempt. So the first attempt is the very request the SDK would send (its
 * URL and headers, taken once from the SDK's own `buildRequest`, the body as
 * it writes it), through the same fetch; an ok JSON answer is the
 * completion. Anything else (an error status, a connection that failed, an
 * answer that is not JSON) goes to the SDK as the outcome of its own first
 * attempt, replayed by the fetch instead of sent again (`TrackedCall.replay`),
 * so the SDK decides, retries and reports exactly as it would have.
 */
export class DirectCompletions {
  private template: Promise<RequestTemplate> | undefined;

  constructor(
    private readonly client: OpenAI,
    /** The client's transport (bounded-retry-fetch.ts), whose fetch serves the SDK. */
    private readonly transport: JudgeTransport,
  ) {}

  async create(
    body: ChatCompletionCreateParamsNonStreaming,
    call: TrackedCall,
    options: { readonly headers: Record<string, string>; readonly signal: AbortSignal },
  ): Promise<ChatCompletion> {
    this.template ??= requestTemplate(this.client);
    const { url, headers } = await this.template;
    try {
      const first = await this.transport.attempt({ url, method: 'POST', headers, body: JSON.stringify(body) }, options.signal, call);
      if (isJsonAnswer(first)) return first.json as ChatCompletion;
      call.replay = { kind: 'answer', answer: first };
    } catch (error) {
      // As the SDK ends a request whose caller's signal aborted.
      if (options.signal.aborted) throw new OpenAI.APIUserAbortError();
      call.replay = { kind: 'failure', error };
    }
    return this.client.chat.completions.create(body, options);
  }
}

interface RequestTemplate {
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
}

/** The URL and headers of the SDK's first attempt at a chat completion: the same for every request of a client (its key does not change). */
async function requestTemplate(client: OpenAI): Promise<RequestTemplate> {
  const { req, url } = await client.buildRequest({ method: 'post', path: '/chat/completions', body: {} }, { retryCount: 0 });
  const headers: Record<string, string> = {};
  if (req.headers instanceof Headers) for (const [name, value] of req.headers) headers[name] = value;
  return { url, headers };
}

/** What the SDK would read as a completion: an ok answer with a JSON body (its defaultParseResponse). */
function isJsonAnswer(answer: WholeAnswer): boolean {
  if (!answer.ok || answer.status === 204 || answer.json === undefined) return false;
  const mediaType = answer.headers.get('content-type')?.split(';')[0]?.trim();
  return mediaType !== undefined && (mediaType.includes('application/json') || mediaType.endsWith('+json'));
}
