import type { z } from 'zod';
import type { Result } from '../schema/result.js';
import { extractJson, parseAnswer, type ParsedAnswer } from './answer-parsing.js';
import { stoppedAnswer, type ChoiceAnswer } from './completion-answer.js';
import type { CompletionRequest } from './judge-completion.js';
import type { ChatMessage } from './output-modes.js';

/**
 * The part of a judgment every transport shares: the answer is read
 * tolerantly and checked against the judge's schema; an answer that does not
 * match gets one repair request that shows the model its answer and what is
 * wrong; a refusal, a content filter or an answer cut at the token limit gets
 * none, since a second request could only be refused, filtered or cut again.
 * After that it is an error value, never a default verdict. The transport
 * only sends: one answer to the messages it is given, with its own retries.
 */

/** Why a judge call has no answer: the sentence, and whether asking again later may give one (a timeout, a 429, a 5xx, a batch answer not in yet). */
export interface CallFailure {
  readonly message: string;
  readonly transient: boolean;
}

/** One answer from the model (after the transport's retries), or why there is none. */
export type SentAnswer = Result<ChoiceAnswer, CallFailure>;

/** The judge's output, read and checked, and the model (and backend, `system_fingerprint`) the server says answered. */
export interface ExchangedAnswer {
  readonly output: unknown;
  readonly reportedModel: string | undefined;
  readonly systemFingerprint?: string;
}

export type ExchangeOutcome = Result<ExchangedAnswer, CallFailure>;

export interface ExchangeLimits {
  /** The token limit the answers were asked under, named when one was cut at it. */
  readonly maxTokens: number;
  /** Removed from a refusal's text before it becomes a value. */
  readonly secrets: readonly string[];
}

export async function exchangeAnswer(
  request: CompletionRequest,
  send: (messages: readonly ChatMessage[]) => Promise<SentAnswer>,
  limits: ExchangeLimits,
): Promise<ExchangeOutcome> {
  const first = await send(request.messages);
  if (!first.ok) return first;
  const parsed = judged(first.value, request.schema, limits);
  if (parsed.ok) return { ok: true, value: exchanged(parsed.value, first.value) };
  if (parsed.error.final) return { ok: false, error: { message: parsed.error.message, transient: false } };
  const repairMessages: ChatMessage[] = [
    ...request.messages,
    { role: 'assistant', content: first.value.text },
    {
      role: 'user',
      content: `That answer is not valid: ${parsed.error.message}. Reply again with only a JSON object that matches the required schema.`,
    },
  ];
  const second = await send(repairMessages);
  if (!second.ok) return second;
  const repaired = judged(second.value, request.schema, limits);
  if (repaired.ok) return { ok: true, value: exchanged(repaired.value, second.value) };
  const message = repaired.error.final ? repaired.error.message : `invalid answer after one repair request: ${repaired.error.message}`;
  return { ok: false, error: { message, transient: false } };
}

/** The output with who answered it, as the answer that carried it names them. */
function exchanged(output: unknown, answer: ChoiceAnswer): ExchangedAnswer {
  const fingerprint = answer.systemFingerprint === undefined ? {} : { systemFingerprint: answer.systemFingerprint };
  return { output, reportedModel: answer.reportedModel, ...fingerprint };
}

/**
 * The outcome as the first fields of a JudgeCompletion, whose failure keeps
 * `error` and `transient` beside the call's cost (judge-completion.ts says why).
 */
export function completionFields(
  outcome: ExchangeOutcome,
): ({ ok: true } & ExchangedAnswer) | { ok: false; error: string; transient: boolean } {
  return outcome.ok ? { ok: true, ...outcome.value } : { ok: false, error: outcome.error.message, transient: outcome.error.transient };
}

/** The answer as the judge's output; `final` when no repair request can help (a refusal, a cut or filtered answer). */
function judged(
  answer: ChoiceAnswer,
  schema: z.ZodType,
  limits: ExchangeLimits,
): Result<unknown, { readonly message: string; readonly final: boolean }> {
  const parsed = readAnswer(answer.text, schema);
  const stopped = stoppedAnswer(answer, parsed.ok, limits.maxTokens, limits.secrets);
  if (stopped !== undefined) return { ok: false, error: { message: stopped, final: true } };
  return parsed.ok ? parsed : { ok: false, error: { message: parsed.error, final: false } };
}

function readAnswer(text: string, schema: z.ZodType): ParsedAnswer<unknown> {
  const json = extractJson(text);
  return json.ok ? parseAnswer(json.value, schema) : json;
}
