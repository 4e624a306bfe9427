import OpenAI from 'openai';
import { z } from 'zod';
import { exchangeAnswer, type SentAnswer } from '../answer-exchange.js';
import type { CallDeadlineOptions } from '../call-deadline.js';
import { chatRequestBody } from '../chat-request-body.js';
import { isProse, readChoice } from '../completion-answer.js';
import type { BatchContext, CompletionRequest, JudgeCompleter, JudgeCompletion, TokenUsage } from '../judge-completion.js';
import { classifyFailure } from '../judge-failure.js';
import { mayBeIgnored, modeBelow, OUTPUT_MODES, type ChatMessage, type OutputMode } from '../output-modes.js';
import { RequestParameters } from '../request-parameters.js';
import { batchRequestId, type BatchAnswer, type BatchRequest } from './batch-request.js';

/**
 * A judge client whose requests go out in batch jobs, on the chat
 * completions wire (OpenAI and Azure OpenAI). A judgment is replayed from
 * the answers its run has collected so far: each request it would send
 * online is built exactly as the online client builds it, and looked up by
 * its id among the answers. The first one without an answer ends the
 * judgment as waiting for it (`awaitingBatch`): the case is judged again
 * once a job has answered, and the judgment goes one request further, until
 * it has an outcome. So a judgment takes the online client's every step,
 * each from an answer of a job: the tolerant parsing and the one repair
 * request (answer-exchange.ts), an output mode the server refused or
 * ignored stepping down, a sampling parameter it refused dropped, refusals,
 * cut and filtered answers read as such. A line the job did not run (it
 * expired, was cancelled, or failed on the provider's side) is sent once
 * more in a later job, or judged online, as `judge.batch.failed_lines` says.
 */
export interface ChatBatchCompleterSettings {
  /** The body's model: the model, or on Azure OpenAI the deployment's name. */
  readonly bodyModel: string;
  /** The model as the run's prices and usage name it. */
  readonly model: string;
  readonly temperature: number;
  readonly maxTokens: number;
  /** Reads a collected answer of the run, by request id. */
  readonly answerOf: (runId: string, requestId: string) => Promise<BatchAnswer | undefined>;
  /** For lines the job did not run, under `failed_lines: online`; absent: they are sent once more in a job. */
  readonly online?: JudgeCompleter;
}

/** What the output of a collected answer must have to be read as a chat completion. */
const completionSchema = z.looseObject({
  choices: z.array(z.unknown()),
  usage: z.looseObject({ prompt_tokens: z.number().optional(), completion_tokens: z.number().optional() }).nullish(),
});

const WAITING = 'waiting for an answer from a batch job';

interface Replay {
  readonly context: BatchContext;
  readonly usage: TokenUsage;
  requests: number;
  /** The first request without an answer: the judgment waits for it. */
  awaiting: BatchRequest | undefined;
  /** A line the job did not run, to be judged online (`failed_lines: online`). */
  goOnline: boolean;
}

export class ChatBatchCompleter implements JudgeCompleter {
  constructor(private readonly settings: ChatBatchCompleterSettings) {}

  async complete(request: CompletionRequest, limits?: CallDeadlineOptions): Promise<JudgeCompletion> {
    const context = request.batch;
    if (context === undefined) throw new Error('A batch judgment needs its run: the judge service passes the batch context');
    const replay: Replay = { context, usage: { inputTokens: 0, outputTokens: 0 }, requests: 0, awaiting: undefined, goOnline: false };
    const outcome = await exchangeAnswer(request, (messages) => this.send(request, messages, replay), { maxTokens: this.settings.maxTokens, secrets: [] });
    const free = { usage: { inputTokens: 0, outputTokens: 0 }, retries: 0, rateLimited: 0 };
    if (replay.awaiting !== undefined) return { ok: false, error: WAITING, transient: true, awaitingBatch: replay.awaiting, ...free };
    if (replay.goOnline && this.settings.online !== undefined) return this.settings.online.complete(request, limits);
    return { ...outcome, usage: replay.usage, retries: Math.max(0, replay.requests - 1), rateLimited: 0, pricing: 'batch' };
  }

  /** One answer to `messages`, walked from the first request the online client would send. */
  private async send(request: CompletionRequest, messages: readonly ChatMessage[], replay: Replay): Promise<SentAnswer> {
    const parameters = new RequestParameters(this.settings.temperature, this.settings.maxTokens);
    let mode: OutputMode = OUTPUT_MODES[0];
    let attempt = 0;
    for (;;) {
      const body = chatRequestBody(this.settings.bodyModel, parameters.current(), mode, messages, request);
      const id = batchRequestId(body, replay.context.sample, attempt);
      const stored = await this.settings.answerOf(replay.context.runId, id);
      if (stored === undefined) {
        replay.awaiting = { id, judge: replay.context.judge, model: this.settings.model, sample: replay.context.sample, attempt, body };
        return { ok: false, error: WAITING, transient: true };
      }
      replay.requests++;
      const { answer } = stored;
      const notRun = answer.kind === 'line-failed' ? `${answer.code}: ${answer.message}` : answer.status === 429 || answer.status >= 500 ? `HTTP ${answer.status}` : undefined;
      if (answer.kind === 'line-failed' || notRun !== undefined) {
        if (this.settings.online !== undefined) {
          replay.goOnline = true;
          return { ok: false, error: `the batch job did not run the request (${notRun})`, transient: true };
        }
        if (attempt === 0) {
          attempt = 1;
          continue;
        }
        return { ok: false, error: `the batch jobs did not run the request, twice (the last: ${notRun})`, transient: false };
      }
      if (answer.status === 200) {
        const completion = completionSchema.safeParse(answer.body);
        if (!completion.success) return { ok: false, error: `the batch job's answer is not a chat completion: ${completion.error.issues[0]?.message ?? 'unreadable'}`, transient: false };
        replay.usage.inputTokens += completion.data.usage?.prompt_tokens ?? 0;
        replay.usage.outputTokens += completion.data.usage?.completion_tokens ?? 0;
        const choice = readChoice(completion.data as unknown as OpenAI.Chat.Completions.ChatCompletion, mode);
        if (mayBeIgnored(mode) && isProse(choice)) {
          mode = modeBelow(mode);
          continue;
        }
        return { ok: true, ...choice };
      }
      const failure = classifyFailure(errorOf(answer.status, answer.body), '', 'the key of the batch jobs');
      if (failure.kind === 'mode-refused' && mode !== 'text') {
        mode = modeBelow(mode);
        continue;
      }
      if (failure.kind === 'parameter-refused' && parameters.drop(failure.parameter)) continue;
      const error = failure.kind === 'fatal' || failure.kind === 'failed' ? failure.error : `the judge server refused the request in every form: HTTP ${answer.status}`;
      return { ok: false, error, transient: false };
    }
  }
}

/** The error an online call would have thrown for this status and body: the SDK's own reading of an error answer. */
function errorOf(status: number, body: unknown): InstanceType<typeof OpenAI.APIError> {
  const json = typeof body === 'object' && body !== null ? body : undefined;
  return OpenAI.APIError.generate(status, json, json === undefined ? String(body ?? '') : undefined, new Headers());
}
