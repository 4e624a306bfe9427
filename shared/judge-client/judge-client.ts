import OpenAI, { AzureOpenAI } from 'openai';
import { completionFields, exchangeAnswer, type SentAnswer } from '../judge-answers/answer-exchange.js';
import { CALL_HEADER, JudgeTransport, type TrackedCall } from './bounded-retry-fetch.js';
import { deadlineMessage, startDeadline, type CallDeadline, type CallDeadlineOptions } from '../judge-answers/call-deadline.js';
import { completionReadSchema, isProse, notACompletion, readChoice } from '../judge-answers/completion-answer.js';
import { chatRequestBody } from './chat-request-body.js';
import {
  FatalFailure,
  type CompletionRequest,
  type JudgeCompleter,
  type JudgeCompletion,
  type TokenUsage,
} from '../judge-answers/judge-completion.js';
import { DirectCompletions } from './direct-completion.js';
import { classifyFailure, type RequestFailure } from './judge-failure.js';
import { OutputModeLadder, type ModeClaim } from '../judge-answers/output-mode-ladder.js';
import { mayBeIgnored, modeBelow, type ChatMessage, type OutputMode } from '../judge-answers/output-modes.js';
import { RateGovernor } from '../judge-rate/rate-governor.js';
import { RequestParameters } from '../judge-answers/request-parameters.js';
import { rememberSecret, scrubSecrets } from '../secrets/scrub-secrets.js';
import { openAiTarget, ServerReach, shownUrl, type ReachTarget } from './server-reach.js';

export { jsonSchemaOf, type ChatMessage, type OutputMode } from '../judge-answers/output-modes.js';
export type { CallCost, CompletionRequest, JudgeCompleter, JudgeCompletion, TokenUsage } from '../judge-answers/judge-completion.js';

/**
 * The judge client: one chat completion per judgment, on the openai SDK, for
 * any OpenAI-compatible server, or an Azure OpenAI deployment through the
 * SDK's AzureOpenAI client (the same chat completions under the deployment's
 * path, with an api-version and an `api-key` header). The SDK retries 5xx,
 * connection errors and timeouts, an answer cut off mid-body included (with
 * Retry-After capped, see bounded-retry-fetch.ts); every attempt waits for
 * the server's rate governor (shared/judge-rate/rate-governor.ts), which holds and paces
 * them, and a rate-limited 429 is sent again there, not by the SDK; a
 * deadline bounds the whole judgment
 * (call-deadline.ts); a server that was never reached and refuses every
 * connection stops every call for a while (server-reach.ts); failures are read by what
 * the server says (judge-failure.ts); the output mode steps down a shared
 * ladder when a server refuses or ignores it (output-mode-ladder.ts). An
 * answer that does not match the schema after tolerant parsing gets one
 * repair request; a refusal or a cut answer gets none; after that it is an
 * error value, never a default verdict.
 */

/** An Azure OpenAI deployment: the same chat completions under `{endpoint}/openai/deployments/{deployment}`, an `api-key` header and an api-version. */
export interface AzureDeployment {
  /** The resource's endpoint, e.g. https://my-resource.openai.azure.com */
  readonly endpoint: string;
  readonly deployment: string;
  readonly apiVersion: string;
}

export interface JudgeClientSettings {
  /** OpenAI-compatible base URL; undefined means the SDK's default (api.openai.com). Not used with `azure`. */
  readonly baseUrl: string | undefined;
  /** The OpenAI key, or with `azure` the Azure OpenAI key. */
  readonly apiKey: string;
  /** Set: the judge runs on this Azure OpenAI deployment, through the SDK's AzureOpenAI client. */
  readonly azure?: AzureDeployment | undefined;
  readonly model: string;
  readonly temperature: number;
  /** One HTTP attempt. */
  readonly timeoutMs: number;
  /** A new connection's opening (http-exchange.ts CONNECT_TIMEOUT_MS when not given). */
  readonly connectTimeoutMs?: number;
  /** Retries of one HTTP request by the SDK on 429, 5xx, connection errors and timeouts. */
  readonly maxRetries: number;
  /** The longest answer asked for (max_tokens, or max_completion_tokens where a model wants that). */
  readonly maxTokens: number;
  /** The longest wait honoured from a server's Retry-After. */
  readonly maxRetryWaitMs: number;
  /** The longest a judgment may take, all attempts and the repair included. */
  readonly callDeadlineMs: number;
  /** The server's rate governor, shared by every client of the process that calls the same server and model (shared/judge-rate/governor-registry.ts); a client of its own without it. */
  readonly governor?: RateGovernor;
}

interface CallState extends TrackedCall {
  readonly usage: TokenUsage;
}

/** A client without a shared governor paces only what its own server tells it: the concurrency callers give bounds its calls. */
const UNSHARED_MAX_IN_FLIGHT = 1_000;

export class JudgeClient implements JudgeCompleter {
  private readonly client: OpenAI;
  /** The same completions, their first attempt sent without the SDK. */
  private readonly completions: DirectCompletions;
  private readonly ladder = new OutputModeLadder();
  private readonly calls = new Map<string, CallState>();
  private nextCall = 0;
  /** Set once no later call can succeed (a refused key, a spent quota): they fail with it, without a request. */
  private readonly fatal = new FatalFailure();
  private readonly parameters: RequestParameters;
  private readonly reach: ServerReach;
  /** The server as messages name it. */
  private readonly target: ReachTarget;
  /** Where the key and the server are set, for the message of a refused key. */
  private readonly credentials: string;

  constructor(private readonly settings: JudgeClientSettings) {
    rememberSecret(settings.apiKey);
    this.parameters = new RequestParameters(settings.temperature, settings.maxTokens);
    const target = settings.azure === undefined ? openAiTarget(settings.baseUrl) : azureTarget(settings.azure);
    this.target = target;
    this.reach = new ServerReach(target, (reason) => {
      // Ends each call's request and the SDK's retries: the server turned out to be unreachable.
      for (const call of this.calls.values()) call.deadline.stop(reason);
    });
    const governor = settings.governor ?? new RateGovernor({ maxInFlight: UNSHARED_MAX_IN_FLIGHT, maxHoldMs: settings.maxRetryWaitMs });
    const bounds = {
      maxRetryWaitMs: settings.maxRetryWaitMs,
      timeoutMs: settings.timeoutMs,
      connectTimeoutMs: settings.connectTimeoutMs,
      maxTokens: settings.maxTokens,
      governor,
    };
    const transport = new JudgeTransport(bounds, this.calls, this.reach);
    const options = {
      apiKey: settings.apiKey,
      maxRetries: settings.maxRetries,
      // The fetch times each attempt from its permit (judge.timeout_ms); the SDK's own timer, which would also run while an attempt waits for the rate limit, is left to the deadline.
      timeout: Math.max(settings.timeoutMs, settings.callDeadlineMs) + 1_000,
      fetch: transport.fetch,
    };
    this.credentials =
      settings.azure === undefined ? 'OPENAI_API_KEY and OPENAI_BASE_URL' : 'AZURE_OPENAI_API_KEY and judge.azure (endpoint, deployment)';
    // The base URL is given whole, so the SDK reads no OPENAI_BASE_URL or AZURE_OPENAI_ENDPOINT of its own.
    this.client =
      settings.azure === undefined
        ? new OpenAI({ ...options, baseURL: settings.baseUrl })
        : new AzureOpenAI({
            ...options,
            baseURL: `${settings.azure.endpoint.replace(/\/+$/, '')}/openai`,
            deployment: settings.azure.deployment,
            apiVersion: settings.azure.apiVersion,
          });
    this.completions = new DirectCompletions(this.client, transport);
  }

  /** The output mode the next call will try first. */
  get outputMode(): OutputMode {
    return this.ladder.mode;
  }

  async complete(request: CompletionRequest, limits: CallDeadlineOptions = {}): Promise<JudgeCompletion> {
    const callKey = String(this.nextCall++);
    const deadline = startDeadline(this.settings.callDeadlineMs, limits);
    const call: CallState = {
      attempts: 0,
      rateLimited: 0,
      heldByRateLimit: false,
      deadline,
      usage: { inputTokens: 0, outputTokens: 0 },
    };
    this.calls.set(callKey, call);
    try {
      const outcome = await exchangeAnswer(request, (messages) => this.send(request, messages, callKey, call), {
        maxTokens: this.settings.maxTokens,
        secrets: [this.settings.apiKey],
      });
      const held = !outcome.ok && call.heldByRateLimit ? { heldByRateLimit: true as const } : {};
      return {
        ...completionFields(outcome),
        ...held,
        usage: { ...call.usage },
        retries: Math.max(0, call.attempts - 1),
        rateLimited: call.rateLimited,
      };
    } finally {
      this.calls.delete(callKey);
      deadline.end();
    }
  }

  /** One completion: the shared mode (or one below a mode this call found ignored), stepping down on refusals. */
  private async send(request: CompletionRequest, messages: readonly ChatMessage[], callKey: string, call: CallState): Promise<SentAnswer> {
    const { deadline } = call;
    const { signal } = deadline;
    let floor: OutputMode | undefined;
    let claim: ModeClaim | undefined;
    try {
      for (;;) {
        const fatal = this.fatal.current;
        if (fatal !== undefined) return { ok: false, error: { message: fatal, transient: false } };
        const unreachable = this.reach.unreachable;
        if (unreachable !== undefined) return { ok: false, error: { message: unreachable, transient: true } };
        claim ??= this.ladder.claim(floor);
        const current: ModeClaim = claim;
        try {
          const completion = await this.completions.create(this.body(request, messages, current.mode), call, {
            headers: { [CALL_HEADER]: callKey },
            signal,
          });
          const read = completionReadSchema.safeParse(completion);
          if (!read.success) {
            // A web page or another API's JSON, sent with a 200: the base URL names something else than the server's API.
            const said = notACompletion(completion, read.error.issues, [this.settings.apiKey]);
            const message = `the judge server at ${this.target.url} answered with ${said}; check that ${this.target.setting} names ${this.target.server}`;
            return { ok: false, error: { message, transient: false } };
          }
          call.usage.inputTokens += completion.usage?.prompt_tokens ?? 0;
          call.usage.outputTokens += completion.usage?.completion_tokens ?? 0;
          const answer = readChoice(read.data, current.mode);
          if (mayBeIgnored(current.mode) && isProse(answer)) {
            // The server dropped response_format and answered prose: this call goes one step down at once.
            current.settle('ignored');
            floor = modeBelow(current.mode);
            claim = undefined;
            continue;
          }
          current.settle('worked');
          return { ok: true, value: answer };
        } catch (error) {
          if (deadline.expired || deadline.outOfTime) return this.outOfTime(deadline, error);
          const stopped = deadline.stoppedWith;
          if (stopped !== undefined) return { ok: false, error: { message: stopped, transient: true } };
          const failure = classifyFailure(error, this.settings.apiKey, this.credentials);
          if (failure.kind === 'mode-refused' && current.mode !== 'text') {
            current.settle('refused');
            claim = undefined;
            continue;
          }
          if (failure.kind === 'parameter-refused' && this.parameters.drop(failure.parameter)) continue;
          if (failure.kind === 'fatal') this.fatal.record(failure.error);
          const message =
            failure.kind === 'fatal' || failure.kind === 'failed' ? failure.error : refusedAgain(failure, error, this.settings.apiKey);
          return { ok: false, error: { message, transient: failure.kind === 'failed' && failure.transient } };
        }
      }
    } finally {
      claim?.settle('undecided');
    }
  }

  /** The last answer is named when a retry was not started for lack of time (a 429 or 5xx), not when the deadline cut a request. */
  private outOfTime(deadline: CallDeadline, error: unknown): SentAnswer {
    const last = error instanceof OpenAI.APIError && error.status !== undefined ? `HTTP ${error.status}` : undefined;
    return { ok: false, error: { message: deadlineMessage(deadline, this.settings.callDeadlineMs, last), transient: true } };
  }

  private body(request: CompletionRequest, messages: readonly ChatMessage[], mode: OutputMode) {
    return chatRequestBody(this.settings.model, this.parameters.current(), mode, messages, request);
  }
}

/** A refusal the client already acted on came again: nothing is left to drop or step down to. */
function refusedAgain(failure: RequestFailure, error: unknown, apiKey: string): string {
  const what = failure.kind === 'parameter-refused' ? `the parameter ${failure.parameter}` : 'every output mode, plain text included';
  return scrubSecrets(`the judge server refused ${what}: ${error instanceof Error ? error.message : String(error)}`, [apiKey]);
}

function azureTarget(azure: AzureDeployment): ReachTarget {
  return {
    url: shownUrl(`${azure.endpoint.replace(/\/+$/, '')}/openai/deployments/${encodeURIComponent(azure.deployment)}`),
    setting: 'judge.azure.endpoint',
    server: 'an Azure OpenAI resource',
  };
}
