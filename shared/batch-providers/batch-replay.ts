import type { Result } from '../schema/result.js';
import { completionFields, exchangeAnswer, type SentAnswer } from '../judge-answers/answer-exchange.js';
import type { CallDeadlineOptions } from '../judge-answers/call-deadline.js';
import type { ChoiceAnswer } from '../judge-answers/completion-answer.js';
import type { BatchContext, CompletionRequest, JudgeCompleter, JudgeCompletion, TokenUsage } from '../judge-answers/judge-completion.js';
import type { RequestFailure } from '../judge-client/judge-failure.js';
import type { ChatMessage, OutputMode } from '../judge-answers/output-modes.js';
import { RequestParameters } from '../judge-answers/request-parameters.js';
import { batchRequestId, type BatchAnswer, type BatchRequest } from '../schema/batch-request.js';

/**
 * A judge client whose requests go out in batch jobs. A judgment is replayed
 * from the answers its run has collected so far: each request it would send
 * online is built exactly as the online client builds it, and looked up by
 * its id among the answers. The first one without an answer ends the
 * judgment as waiting for it (`awaitingBatch`): the case is judged again
 * once a job has answered, and the judgment goes one request further, until
 * it has an outcome. So a judgment takes the online client's every step,
 * each from an answer of a job: the tolerant parsing and the one repair
 * request (answer-exchange.ts), an output mode the server refused or
 * ignored stepping down, a sampling parameter it refused dropped, refusals,
 * cut and filtered answers read as such. A line the job did not run (it
 * expired, was stopped, or failed on the provider's side) is sent once more
 * in a later job, or judged online, as `judge.batch.failed_lines` says.
 *
 * What differs between providers is the wire (a BatchWire): how a request
 * body is built, how an answer and an error answer are read. The loop here
 * is the same for all of them.
 */
export interface BatchWire {
  /** The output modes, most to least strict, as the online client walks them. */
  readonly modes: readonly OutputMode[];
  /** The request body the online client would send in `mode` with these parameters. */
  body(
    mode: OutputMode,
    parameters: RequestParameters,
    messages: readonly ChatMessage[],
    request: CompletionRequest,
  ): Record<string, unknown>;
  /** A 200 answer read as the online client reads it (its tokens were counted when its job was collected). */
  read(body: unknown, mode: OutputMode): Result<ChoiceAnswer>;
  /** The answer shows the server ignored the mode (prose where JSON was asked): the next mode is asked, as online. */
  ignored(choice: ChoiceAnswer, mode: OutputMode): boolean;
  /** What an error answer means, as the online client would classify the same answer. */
  failure(status: number, body: unknown): RequestFailure;
  /** The error of a request refused (`failure`) in its last output mode, or after its last parameter was dropped. */
  refusedEverywhere(failure: RequestFailure, status: number, body: unknown): string;
}

export interface BatchReplaySettings {
  /** The model as the run's prices and usage name it. */
  readonly model: string;
  readonly temperature: number;
  readonly maxTokens: number;
  /** Reads a collected answer of the run, by request id. */
  readonly answerOf: (runId: string, requestId: string) => Promise<BatchAnswer | undefined>;
  /** For lines the job did not run, under `failed_lines: online`; absent: they are sent once more in a job. */
  readonly online?: JudgeCompleter;
  /** For lines the one resubmission did not run either, under `unanswered_lines: online`; absent: the judgment ends in error. */
  readonly unanswered?: JudgeCompleter;
  /** For a judgment whose context says its round is judged online (`below_minimum: online`) and that needs a request no job answered. */
  readonly belowMinimum?: JudgeCompleter;
}

const WAITING = 'waiting for an answer from a batch job';
const NO_TOKENS: TokenUsage = { inputTokens: 0, outputTokens: 0 };

interface Replay {
  readonly context: BatchContext;
  requests: number;
  /** The first request without an answer: the judgment waits for it. */
  awaiting: BatchRequest | undefined;
  /** A line the jobs did not run, and the online client that makes the judgment instead (`failed_lines` or `unanswered_lines: online`). */
  goOnline: JudgeCompleter | undefined;
}

/**
 * Statuses of a line the provider did not run, as an online client would
 * have retried it: a timeout, a model error (Bedrock's 424), throttling, a
 * server error.
 */
function notRunStatus(status: number): boolean {
  return status === 408 || status === 424 || status === 429 || status >= 500;
}

export class BatchReplayCompleter implements JudgeCompleter {
  constructor(
    private readonly wire: BatchWire,
    private readonly settings: BatchReplaySettings,
  ) {}

  async complete(request: CompletionRequest, limits?: CallDeadlineOptions): Promise<JudgeCompletion> {
    const context = request.batch;
    if (context === undefined) throw new Error('A batch judgment needs its run: the judge service passes the batch context');
    const replay: Replay = { context, requests: 0, awaiting: undefined, goOnline: undefined };
    const outcome = await exchangeAnswer(request, (messages) => this.send(request, messages, replay), {
      maxTokens: this.settings.maxTokens,
      secrets: [],
    });
    const free = { usage: { inputTokens: 0, outputTokens: 0 }, retries: 0, rateLimited: 0 };
    if (replay.awaiting !== undefined) {
      // No job will hold this request (its round was below the provider's minimum): the judgment is made online, whole.
      if (context.online === true && this.settings.belowMinimum !== undefined) return this.settings.belowMinimum.complete(request, limits);
      return { ok: false, error: WAITING, transient: true, awaitingBatch: replay.awaiting, ...free };
    }
    if (replay.goOnline !== undefined) return replay.goOnline.complete(request, limits);
    // No tokens here: what the provider billed for every line is counted once, when its job is collected (shared/batch-judging/job-collection.ts).
    return { ...completionFields(outcome), usage: NO_TOKENS, retries: Math.max(0, replay.requests - 1), rateLimited: 0, pricing: 'batch' };
  }

  /** One answer to `messages`, walked from the first request the online client would send. */
  private async send(request: CompletionRequest, messages: readonly ChatMessage[], replay: Replay): Promise<SentAnswer> {
    const { wire } = this;
    const parameters = new RequestParameters(this.settings.temperature, this.settings.maxTokens);
    let modeIndex = 0;
    const mode = (): OutputMode => wire.modes[modeIndex] ?? 'text';
    /** To the next mode, as the online client steps; false in the last one. */
    const stepDown = (): boolean => {
      if (modeIndex + 1 >= wire.modes.length) return false;
      modeIndex += 1;
      return true;
    };
    let attempt = 0;
    for (;;) {
      const body = wire.body(mode(), parameters, messages, request);
      const id = batchRequestId(body, replay.context.sample, attempt);
      const stored = await this.settings.answerOf(replay.context.runId, id);
      if (stored === undefined) {
        replay.awaiting = { id, judge: replay.context.judge, model: this.settings.model, sample: replay.context.sample, attempt, body };
        return { ok: false, error: { message: WAITING, transient: true } };
      }
      replay.requests++;
      const { answer } = stored;
      const notRun =
        answer.kind === 'line-failed'
          ? `${answer.code}: ${answer.message}`
          : notRunStatus(answer.status)
            ? `HTTP ${answer.status}`
            : undefined;
      if (answer.kind === 'line-failed' || notRun !== undefined) {
        if (this.settings.online !== undefined || (attempt > 0 && this.settings.unanswered !== undefined)) {
          if (replay.context.onlineRefused === true)
            return {
              ok: false,
              error: {
                message: `the batch jobs did not run the request (${notRun}), and run.max_judge_cost was reached: it is not judged online`,
                transient: false,
              },
            };
          replay.goOnline = this.settings.online ?? this.settings.unanswered;
          return { ok: false, error: { message: `the batch job did not run the request (${notRun})`, transient: true } };
        }
        if (attempt === 0) {
          attempt = 1;
          continue;
        }
        return { ok: false, error: { message: `the batch jobs did not run the request, twice (the last: ${notRun})`, transient: false } };
      }
      if (answer.status === 200) {
        const read = wire.read(answer.body, mode());
        if (!read.ok) return { ok: false, error: { message: read.error, transient: false } };
        if (wire.ignored(read.value, mode()) && stepDown()) continue;
        return read;
      }
      const failure = wire.failure(answer.status, answer.body);
      if (failure.kind === 'mode-refused' && stepDown()) continue;
      if (failure.kind === 'parameter-refused' && parameters.drop(failure.parameter)) continue;
      const error =
        failure.kind === 'fatal' || failure.kind === 'failed' ? failure.error : wire.refusedEverywhere(failure, answer.status, answer.body);
      return { ok: false, error: { message: error, transient: false } };
    }
  }
}
