import type { z } from 'zod';
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

/** One answer from the model (after the transport's retries), or why there is none. */
export type SentAnswer = ({ ok: true } & ChoiceAnswer) | { ok: false; error: string; transient: boolean };

export type ExchangeOutcome =
  | { ok: true; output: unknown; reportedModel: string | undefined }
  | { ok: false; error: string; transient: boolean };

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
  const parsed = judged(first, request.schema, limits);
  if (parsed.ok) return { ok: true, output: parsed.value, reportedModel: first.reportedModel };
  if (parsed.final) return { ok: false, error: parsed.error, transient: false };
  const repairMessages: ChatMessage[] = [
    ...request.messages,
    { role: 'assistant', content: first.text },
    {
      role: 'user',
      content: `That answer is not valid: ${parsed.error}. Reply again with only a JSON object that matches the required schema.`,
    },
  ];
  const second = await send(repairMessages);
  if (!second.ok) return second;
  const repaired = judged(second, request.schema, limits);
  if (repaired.ok) return { ok: true, output: repaired.value, reportedModel: second.reportedModel };
  const error = repaired.final ? repaired.error : `invalid answer after one repair request: ${repaired.error}`;
  return { ok: false, error, transient: false };
}

/** The answer as the judge's output; `final` when no repair request can help (a refusal, a cut or filtered answer). */
function judged(
  answer: ChoiceAnswer,
  schema: z.ZodType,
  limits: ExchangeLimits,
): { ok: true; value: unknown } | { ok: false; error: string; final: boolean } {
  const parsed = readAnswer(answer.text, schema);
  const stopped = stoppedAnswer(answer, parsed.ok, limits.maxTokens, limits.secrets);
  if (stopped !== undefined) return { ok: false, error: stopped, final: true };
  return parsed.ok ? parsed : { ok: false, error: parsed.error, final: false };
}

function readAnswer(text: string, schema: z.ZodType): ParsedAnswer<unknown> {
  const json = extractJson(text);
  return json.ok ? parseAnswer(json.value, schema) : json;
}
