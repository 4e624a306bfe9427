import OpenAI from 'openai';
import type { z } from 'zod';
import { extractJson, parseAnswer, type ParsedAnswer } from './answer-parsing.js';
import { boundedRetryFetch, CALL_HEADER, type TrackedCall } from './bounded-retry-fetch.js';
import { deadlineMessage, startDeadline, type CallDeadline, type CallDeadlineOptions } from './call-deadline.js';
import { readChoice, stoppedAnswer, type ChoiceAnswer } from './completion-answer.js';
import { classifyFailure, type RequestFailure } from './judge-failure.js';
import { OutputModeLadder, type ModeClaim } from './output-mode-ladder.js';
import { RateGovernor } from './rate/rate-governor.js';
import { mayBeIgnored, modeBelow, outputRequest, type ChatMessage, type OutputMode } from './output-modes.js';
import { RequestParameters } from './request-parameters.js';
import { rememberSecret, scrubSecrets } from '../secrets/scrub-secrets.js';
import { ServerReach } from './server-reach.js';

export { jsonSchemaOf, type ChatMessage, type OutputMode } from './output-modes.js';

/**
 * The judge client: one chat completion per judgment, on the openai SDK, for
 * any OpenAI-compatible server. The SDK retries 5xx, connection errors and
 * timeouts, an answer cut off mid-body included (with Retry-After capped, see
 * bounded-retry-fetch.ts); every attempt waits for the server's rate
 * governor (rate/rate-governor.ts), which holds and paces them, and a
 * rate-limited 429 is sent again there, not by the SDK; a deadline bounds the whole judgment
 * (call-deadline.ts); a server that was never reached and refuses every
 * connection stops every call for a while (server-reach.ts); failures are read by what
 * the server says (judge-failure.ts); the output mode steps down a shared
 * ladder when a server refuses or ignores it (output-mode-ladder.ts). An
 * answer that does not match the schema after tolerant parsing gets one
 * repair request; a refusal or a cut answer gets none; after that it is an
 * error value, never a default verdict.
 */

export interface JudgeClientSettings {
  /** OpenAI-compatible base URL; undefined means the SDK's default (api.openai.com). */
  readonly baseUrl: string | undefined;
  readonly apiKey: string;
  readonly model: string;
  readonly temperature: number;
  /** One HTTP attempt. */
  readonly timeoutMs: number;
  /** Retries of one HTTP request by the SDK on 429, 5xx, connection errors and timeouts. */
  readonly maxRetries: number;
  /** The longest answer asked for (max_tokens, or max_completion_tokens where a model wants that). */
  readonly maxTokens: number;
  /** The longest wait honoured from a server's Retry-After. */
  readonly maxRetryWaitMs: number;
  /** The longest a judgment may take, all attempts and the repair included. */
  readonly callDeadlineMs: number;
  /** The server's rate governor, shared by every client of the process that calls the same server and model (rate/governor-registry.ts); a client of its own without it. */
  readonly governor?: RateGovernor;
}

export interface TokenUsage {
  inputTokens: number;
  outputTokens: number;
}

/**
 * What one judgment cost: tokens, and the HTTP requests beyond its first (the
 * SDK's retries, rate-limited requests sent again, requests sent again in a
 * lower output mode or without a refused parameter, the repair request), so
 * that one plus the retries is every request the server saw.
 */
export interface CallCost {
  readonly usage: TokenUsage;
  readonly retries: number;
  /** Requests the server refused as over its rate limit (counted among the retries when sent again). */
  readonly rateLimited: number;
}

export type JudgeCompletion =
  | ({ ok: true; output: unknown; /** The model the server says answered; it may differ from the one asked for (an alias, a gateway). */ reportedModel: string | undefined } & CallCost)
  | ({ ok: false; error: string; transient: boolean; /** The deadline came while the server's rate limit held the judgment. */ heldByRateLimit?: true } & CallCost);

export interface CompletionRequest {
  readonly messages: readonly ChatMessage[];
  readonly schema: z.ZodType;
  /** Name of the schema (and of the tool in tool mode): letters, digits, _ and -. */
  readonly schemaName: string;
}

type Sent = ({ ok: true } & ChoiceAnswer) | { ok: false; error: string; transient: boolean };
interface CallState extends TrackedCall {
  readonly usage: TokenUsage;
  /** Ends the call's request and the SDK's retries when the server turns out to be unreachable. */
  readonly stop: AbortController;
}

/** A client without a shared governor paces only what its own server tells it: the concurrency callers give bounds its calls. */
const UNSHARED_MAX_IN_FLIGHT = 1_000;

export class JudgeClient {
  private readonly client: OpenAI;
  private readonly ladder = new OutputModeLadder();
  private readonly calls = new Map<string, CallState>();
  private nextCall = 0;
  /** Set once no later call can succeed (a refused key, a spent quota): they fail with it, without a request. */
  private fatal: string | undefined;
  private readonly parameters: RequestParameters;
  private readonly reach: ServerReach;

  constructor(private readonly settings: JudgeClientSettings) {
    rememberSecret(settings.apiKey);
    this.parameters = new RequestParameters(settings.temperature, settings.maxTokens);
    this.reach = new ServerReach(settings.baseUrl, (reason) => {
      for (const call of this.calls.values()) call.stop.abort(reason);
    });
    const governor = settings.governor ?? new RateGovernor({ maxInFlight: UNSHARED_MAX_IN_FLIGHT, maxHoldMs: settings.maxRetryWaitMs });
    const bounds = { maxRetryWaitMs: settings.maxRetryWaitMs, timeoutMs: settings.timeoutMs, maxTokens: settings.maxTokens, governor };
    this.client = new OpenAI({
      apiKey: settings.apiKey,
      baseURL: settings.baseUrl,
      maxRetries: settings.maxRetries,
      // The fetch times each attempt from its permit (judge.timeout_ms); the SDK's own timer, which would also run while an attempt waits for the rate limit, is left to the deadline.
      timeout: Math.max(settings.timeoutMs, settings.callDeadlineMs) + 1_000,
      fetch: boundedRetryFetch(bounds, this.calls, this.reach),
    });
  }

  /** The output mode the next call will try first. */
  get outputMode(): OutputMode {
    return this.ladder.mode;
  }

  async complete(request: CompletionRequest, limits: CallDeadlineOptions = {}): Promise<JudgeCompletion> {
    const callKey = String(this.nextCall++);
    const deadline = startDeadline(this.settings.callDeadlineMs, limits);
    const call: CallState = { attempts: 0, rateLimited: 0, heldByRateLimit: false, deadline, usage: { inputTokens: 0, outputTokens: 0 }, stop: new AbortController() };
    this.calls.set(callKey, call);
    const finish = <T extends { ok: boolean }>(result: T) => {
      this.calls.delete(callKey);
      const held = !result.ok && call.heldByRateLimit ? { heldByRateLimit: true as const } : {};
      return { ...result, ...held, usage: { ...call.usage }, retries: Math.max(0, call.attempts - 1), rateLimited: call.rateLimited };
    };
    const first = await this.send(request, request.messages, callKey, call);
    if (!first.ok) return finish(first);
    const parsed = this.judged(first, request.schema);
    if (parsed.ok || parsed.final) return finish(parsed.ok ? { ok: true as const, output: parsed.value, reportedModel: first.reportedModel } : { ok: false as const, error: parsed.error, transient: false });
    // One repair: show the model its answer and what is wrong with it.
    const repairMessages: ChatMessage[] = [
      ...request.messages,
      { role: 'assistant', content: first.text },
      { role: 'user', content: `That answer is not valid: ${parsed.error}. Reply again with only a JSON object that matches the required schema.` },
    ];
    const second = await this.send(request, repairMessages, callKey, call);
    if (!second.ok) return finish(second);
    const repaired = this.judged(second, request.schema);
    if (repaired.ok) return finish({ ok: true as const, output: repaired.value, reportedModel: second.reportedModel });
    const error = repaired.final ? repaired.error : `invalid answer after one repair request: ${repaired.error}`;
    return finish({ ok: false as const, error, transient: false });
  }

  /** The answer as the judge's output; `final` when no repair request can help (a refusal, a cut answer). */
  private judged(answer: ChoiceAnswer, schema: z.ZodType): { ok: true; value: unknown } | { ok: false; error: string; final: boolean } {
    const parsed = readAnswer(answer.text, schema);
    const stopped = stoppedAnswer(answer, parsed.ok, this.settings.maxTokens, this.settings.apiKey);
    if (stopped !== undefined) return { ok: false, error: stopped, final: true };
    return parsed.ok ? parsed : { ok: false, error: parsed.error, final: false };
  }

  /** One completion: the shared mode (or one below a mode this call found ignored), stepping down on refusals. */
  private async send(request: CompletionRequest, messages: readonly ChatMessage[], callKey: string, call: CallState): Promise<Sent> {
    const { deadline } = call;
    const signal = AbortSignal.any([deadline.signal, call.stop.signal]);
    let floor: OutputMode | undefined;
    let claim: ModeClaim | undefined;
    try {
      for (;;) {
        if (this.fatal !== undefined) return { ok: false, error: this.fatal, transient: false };
        const unreachable = this.reach.unreachable;
        if (unreachable !== undefined) return { ok: false, error: unreachable, transient: true };
        claim ??= this.ladder.claim(floor);
        const current: ModeClaim = claim;
        try {
          const completion = await this.client.chat.completions.create(this.body(request, messages, current.mode), { headers: { [CALL_HEADER]: callKey }, signal });
          call.usage.inputTokens += completion.usage?.prompt_tokens ?? 0;
          call.usage.outputTokens += completion.usage?.completion_tokens ?? 0;
          const answer = readChoice(completion, current.mode);
          if (mayBeIgnored(current.mode) && isProse(answer)) {
            // The server dropped response_format and answered prose: this call goes one step down at once.
            current.settle('ignored');
            floor = modeBelow(current.mode);
            claim = undefined;
            continue;
          }
          current.settle('worked');
          return { ok: true, ...answer };
        } catch (error) {
          if (deadline.signal.aborted || deadline.outOfTime) return this.outOfTime(deadline, error);
          const stopped: unknown = call.stop.signal.reason;
          if (call.stop.signal.aborted && typeof stopped === 'string') return { ok: false, error: stopped, transient: true };
          const failure = classifyFailure(error, this.settings.apiKey);
          if (failure.kind === 'mode-refused' && current.mode !== 'text') {
            current.settle('refused');
            claim = undefined;
            continue;
          }
          if (failure.kind === 'parameter-refused' && this.parameters.drop(failure.parameter)) continue;
          if (failure.kind === 'fatal') this.fatal = failure.error;
          const message = failure.kind === 'fatal' || failure.kind === 'failed' ? failure.error : refusedAgain(failure, error, this.settings.apiKey);
          return { ok: false, error: message, transient: failure.kind === 'failed' && failure.transient };
        }
      }
    } finally {
      claim?.settle('undecided');
    }
  }

  /** The last answer is named when a retry was not started for lack of time (a 429 or 5xx), not when the deadline cut a request. */
  private outOfTime(deadline: CallDeadline, error: unknown): Sent {
    const last = error instanceof OpenAI.APIError && error.status !== undefined ? `HTTP ${error.status}` : undefined;
    return { ok: false, error: deadlineMessage(deadline, this.settings.callDeadlineMs, last), transient: true };
  }

  private body(request: CompletionRequest, messages: readonly ChatMessage[], mode: OutputMode) {
    return {
      model: this.settings.model,
      ...this.parameters.current(),
      ...outputRequest(mode, messages, request.schema, request.schemaName),
    };
  }
}

/** A refusal the client already acted on came again: nothing is left to drop or step down to. */
function refusedAgain(failure: RequestFailure, error: unknown, apiKey: string): string {
  const what = failure.kind === 'parameter-refused' ? `the parameter ${failure.parameter}` : 'every output mode, plain text included';
  return scrubSecrets(`the judge server refused ${what}: ${error instanceof Error ? error.message : String(error)}`, [apiKey]);
}

/** An answer with no JSON object at all, and not a refusal: what a server that ignores response_format sends. */
function isProse(answer: ChoiceAnswer): boolean {
  return answer.refusal === undefined && answer.finishReason !== 'length' && answer.finishReason !== 'content_filter' && !extractJson(answer.text).ok;
}

function readAnswer(text: string, schema: z.ZodType): ParsedAnswer<unknown> {
  const json = extractJson(text);
  return json.ok ? parseAnswer(json.value, schema) : json;
}
