import {
  BedrockRuntimeClient,
  ConverseCommand,
  type ConverseCommandInput,
  type ConverseCommandOutput,
} from '@aws-sdk/client-bedrock-runtime';
import { quietNodeVersionNotice } from '../ports/aws-node-notice.js';
import { completionFields, exchangeAnswer, type SentAnswer } from '../judge-answers/answer-exchange.js';
import { converseAnswer, converseInput, CONVERSE_MODES } from './bedrock-converse.js';
import { classifyBedrockFailure, type BedrockWire } from './bedrock-failure.js';
import { bedrockHttpVersion, type BedrockHttpVersion } from './bedrock-http-version.js';
import { bedrockRequestHandler } from './bedrock-request-handler.js';
import { deadlineMessage, startDeadline, type CallDeadline, type CallDeadlineOptions } from '../judge-answers/call-deadline.js';
import {
  FatalFailure,
  type CompletionRequest,
  type JudgeCompleter,
  type JudgeCompletion,
  type TokenUsage,
} from '../judge-answers/judge-completion.js';
import { OutputModeLadder, type ModeClaim } from '../judge-answers/output-mode-ladder.js';
import { RateGovernor, type Permit } from '../judge-rate/rate-governor.js';
import type { ChatMessage, OutputMode } from '../judge-answers/output-modes.js';
import { codeIn } from '../network/network-fault.js';
import { ServerReach, shownUrl } from './server-reach.js';

/**
 * The judge client on Amazon Bedrock: one Converse call per answer, through
 * the AWS SDK, signed with SigV4 from the standard credential chain (on AWS,
 * the judge worker's role; no API key). The SDK retries throttling, 5xx and
 * connection errors with its backoff; the judgment's deadline aborts a
 * request in flight or a wait between attempts. It speaks HTTP/1.1 to an
 * http:// endpoint and HTTP/2 to any other, unless judge.bedrock.http_version
 * says (bedrock-http-version.ts). Structured output is a forced tool
 * (bedrock-converse.ts), stepping down to JSON in text on a model that
 * refuses it; failures are read by the error the service named
 * (bedrock-failure.ts); the answer exchange, its one repair, and the reading
 * of cut or filtered answers are the OpenAI client's (answer-exchange.ts).
 */

export interface BedrockJudgeSettings {
  readonly region: string;
  /** Another endpoint than the region's (a VPC endpoint, a proxy, a test server). */
  readonly endpoint: string | undefined;
  /** judge.bedrock.http_version; undefined: by the endpoint's scheme. */
  readonly httpVersion?: BedrockHttpVersion | undefined;
  /** The Bedrock model id (or inference profile id) to converse with. */
  readonly model: string;
  readonly temperature: number;
  /** One HTTP attempt. */
  readonly timeoutMs: number;
  /** Retries of one request by the SDK on throttling, 5xx and connection errors. */
  readonly maxRetries: number;
  readonly maxTokens: number;
  /** The longest a judgment may take, all attempts and the repair included. */
  readonly callDeadlineMs: number;
  /** The model's rate governor, shared by every client of the process that calls it (shared/judge-rate/governor-registry.ts); a client of its own without it. */
  readonly governor?: RateGovernor | undefined;
}

/** A client without a shared governor paces only by what its own throttling tells it. */
const UNSHARED_MAX_IN_FLIGHT = 1_000;
const UNSHARED_MAX_HOLD_MS = 30_000;
/** Bedrock's refusals that a wait cures: the account's or the model's rate. */
const THROTTLING = new Set(['ThrottlingException', 'ServiceQuotaExceededException']);

interface BedrockCall {
  readonly deadline: CallDeadline;
  readonly usage: TokenUsage;
  /** HTTP attempts over all of the judgment's Converse requests, each with its SDK retries. */
  attempts: number;
  /** Attempts Bedrock refused as throttled. */
  rateLimited: number;
  /** The rate limit holds the call: it waits for a permit, or its last answer was throttling. */
  heldByRateLimit: boolean;
  /** The last error answer, named when the deadline ends the judgment. */
  lastFailure: string | undefined;
  /** Ends the call's request and the SDK's retries when Bedrock turns out to be unreachable. */
  readonly stop: AbortController;
}

type AttemptMiddleware = Parameters<ConverseCommand['middlewareStack']['addRelativeTo']>[0];
/** A finalize-step handler as the SDK calls it: the signed request in, the HTTP response and the output out. */
type AttemptHandler = (args: {
  input: ConverseCommandInput;
  request: unknown;
}) => Promise<{ response: unknown; output: ConverseCommandOutput }>;

export class BedrockJudgeClient implements JudgeCompleter {
  private readonly client: BedrockRuntimeClient;
  private readonly ladder = new OutputModeLadder(2, CONVERSE_MODES);
  private readonly fatal = new FatalFailure();
  private readonly reach: ServerReach;
  private readonly calls = new Set<BedrockCall>();
  private readonly governor: RateGovernor;
  /** Cleared once the model refuses a temperature (it takes only its default). */
  private sendTemperature = true;
  /** How messages name the model: `model <id> in <region>`. */
  private readonly target: string;
  /** How the client speaks to the server, for the message of a server that speaks another HTTP. */
  private readonly wire: Omit<BedrockWire, 'answered'>;
  /** The server has sent an HTTP answer: it speaks the version, so a protocol error from now on is a passing fault. */
  private answered = false;

  constructor(private readonly settings: BedrockJudgeSettings) {
    quietNodeVersionNotice();
    this.governor = settings.governor ?? new RateGovernor({ maxInFlight: UNSHARED_MAX_IN_FLIGHT, maxHoldMs: UNSHARED_MAX_HOLD_MS });
    const url = shownUrl(settings.endpoint ?? `https://bedrock-runtime.${settings.region}.amazonaws.com`);
    this.reach = new ServerReach({ url, setting: 'judge.bedrock (region, endpoint)', server: "Amazon Bedrock's runtime" }, (reason) => {
      for (const call of this.calls) call.stop.abort(reason);
    });
    const version = bedrockHttpVersion(settings.endpoint, settings.httpVersion);
    this.wire = { url, version, chosen: settings.httpVersion !== undefined };
    this.client = new BedrockRuntimeClient({
      region: settings.region,
      maxAttempts: settings.maxRetries + 1,
      requestHandler: bedrockRequestHandler(version, settings.timeoutMs),
      ...(settings.endpoint === undefined ? {} : { endpoint: settings.endpoint }),
    });
    this.target = `model ${settings.model} in ${settings.region}`;
  }

  /** The output mode the next call will try first. */
  get outputMode(): OutputMode {
    return this.ladder.mode;
  }

  async complete(request: CompletionRequest, limits: CallDeadlineOptions = {}): Promise<JudgeCompletion> {
    const deadline = startDeadline(this.settings.callDeadlineMs, limits);
    const call: BedrockCall = {
      deadline,
      usage: { inputTokens: 0, outputTokens: 0 },
      attempts: 0,
      rateLimited: 0,
      heldByRateLimit: false,
      lastFailure: undefined,
      stop: new AbortController(),
    };
    this.calls.add(call);
    try {
      const outcome = await exchangeAnswer(request, (messages) => this.send(request, messages, call), {
        maxTokens: this.settings.maxTokens,
        secrets: [],
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
      this.calls.delete(call);
      deadline.end();
    }
  }

  /** One answer in the shared mode, stepping down when the model refuses forced tool use. */
  private async send(request: CompletionRequest, messages: readonly ChatMessage[], call: BedrockCall): Promise<SentAnswer> {
    const signal = AbortSignal.any([call.deadline.signal, call.stop.signal]);
    let claim: ModeClaim | undefined;
    try {
      for (;;) {
        const fatal = this.fatal.current;
        if (fatal !== undefined) return { ok: false, error: { message: fatal, transient: false } };
        const unreachable = this.reach.unreachable;
        if (unreachable !== undefined) return { ok: false, error: { message: unreachable, transient: true } };
        claim ??= this.ladder.claim();
        const current: ModeClaim = claim;
        const parameters = {
          modelId: this.settings.model,
          maxTokens: this.settings.maxTokens,
          temperature: this.sendTemperature ? this.settings.temperature : undefined,
        };
        try {
          const output = await this.converse(
            converseInput(current.mode, messages, request.schema, request.schemaName, parameters),
            call,
            signal,
          );
          call.usage.inputTokens += output.usage?.inputTokens ?? 0;
          call.usage.outputTokens += output.usage?.outputTokens ?? 0;
          current.settle('worked');
          return { ok: true, value: converseAnswer(output, current.mode) };
        } catch (error) {
          if (call.deadline.signal.aborted) return this.outOfTime(call);
          const stopped: unknown = call.stop.signal.reason;
          if (call.stop.signal.aborted && typeof stopped === 'string') return { ok: false, error: { message: stopped, transient: true } };
          const failure = classifyBedrockFailure(error, this.target, { ...this.wire, answered: this.answered });
          if (failure.kind === 'mode-refused' && current.mode !== 'text') {
            current.settle('refused');
            claim = undefined;
            continue;
          }
          if (failure.kind === 'parameter-refused' && this.sendTemperature) {
            this.sendTemperature = false;
            continue;
          }
          if (failure.kind === 'fatal') this.fatal.record(failure.error);
          if (failure.kind === 'fatal' || failure.kind === 'failed')
            return { ok: false, error: { message: failure.error, transient: failure.kind === 'failed' && failure.transient } };
          const what = failure.kind === 'mode-refused' ? 'every output mode, JSON in text included' : `the parameter ${failure.parameter}`;
          return {
            ok: false,
            error: {
              message: `Amazon Bedrock refused ${what}: ${error instanceof Error ? error.message : String(error)}`,
              transient: false,
            },
          };
        }
      }
    } finally {
      claim?.settle('undecided');
    }
  }

  /** One Converse request with the SDK's retries; each of its HTTP attempts passes through attemptObserver. */
  private converse(input: ConverseCommandInput, call: BedrockCall, signal: AbortSignal): Promise<ConverseCommandOutput> {
    const command = new ConverseCommand(input);
    command.middlewareStack.addRelativeTo(this.attemptObserver(call), {
      relation: 'after',
      toMiddleware: 'retryMiddleware',
      name: 'assayJudgeAttempt',
    });
    return this.client.send(command, { abortSignal: signal });
  }

  /**
   * The one place where an HTTP attempt starts and its outcome is known: the
   * SDK's retry middleware calls this once per attempt, after its backoff and
   * before signing. The attempt waits for the model's rate governor first (a
   * throttled model holds every attempt of the process), then it is counted,
   * ServerReach learns whether Bedrock answered at all, the governor what
   * came of it, and the last error answer is kept for the deadline's message.
   */
  private attemptObserver(call: BedrockCall): AttemptMiddleware {
    const observer =
      (next: AttemptHandler): AttemptHandler =>
      async (args) => {
        const permit = await this.permitFor(args.input, call);
        call.attempts++;
        const startedAt = Date.now();
        try {
          const result = await next(args);
          this.reach.sawAnswer();
          this.answered = true;
          call.heldByRateLimit = false;
          permit.done({
            status: 200,
            ...(result.output.usage?.totalTokens === undefined ? {} : { tokens: result.output.usage.totalTokens }),
          });
          return result;
        } catch (error) {
          const status = (error as { $metadata?: { httpStatusCode?: unknown } }).$metadata?.httpStatusCode;
          const throttled = error instanceof Error && THROTTLING.has(error.name);
          if (throttled) call.rateLimited++;
          call.heldByRateLimit = throttled;
          if (typeof status !== 'number') {
            // An attempt past judge.timeout_ms, or cut by the judgment's deadline, got no answer at all. The SDK names a
            // connection the server reset or closed a TimeoutError too (for its retries): that one the code tells apart.
            const closed = codeIn(error, (code) => code === 'ECONNRESET' || code === 'EPIPE') !== undefined;
            if (!closed && ((error instanceof Error && error.name === 'TimeoutError') || call.deadline.expired))
              this.reach.sawSilence(startedAt, this.settings.timeoutMs);
            else this.reach.sawFailure(error, startedAt);
            permit.done({});
          } else {
            this.reach.sawAnswer();
            this.answered = true;
            call.lastFailure = `${error instanceof Error ? error.name : 'an error'} (HTTP ${status})`;
            permit.done({ status, rateLimited: throttled });
          }
          throw error;
        }
      };
    // The stack takes a middleware of any step; this one is of the finalize step, where the retry middleware is.
    return observer as AttemptMiddleware;
  }

  /** Waits for the governor's permit within the call's deadline, the call marked as held by the rate limit meanwhile. */
  private async permitFor(input: ConverseCommandInput, call: BedrockCall): Promise<Permit> {
    // Tokens as the governor estimates them everywhere: about four characters a token, and the longest answer asked for.
    const tokens = Math.ceil(JSON.stringify([input.system ?? [], input.messages ?? []]).length / 4) + this.settings.maxTokens;
    const held = call.heldByRateLimit;
    call.heldByRateLimit = true;
    const permit = await this.governor.acquire(tokens, AbortSignal.any([call.deadline.signal, call.stop.signal]));
    call.heldByRateLimit = held;
    return permit;
  }

  private outOfTime(call: BedrockCall): SentAnswer {
    return {
      ok: false,
      error: { message: deadlineMessage(call.deadline, this.settings.callDeadlineMs, call.lastFailure), transient: true },
    };
  }
}
