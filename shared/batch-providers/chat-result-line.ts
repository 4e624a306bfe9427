import { z } from 'zod';
import { removeKnownSecrets, scrubSecrets, withCleanStrings } from '../secrets/scrub-secrets.js';
import type { TokenUsage } from '../judge-answers/judge-completion.js';
import type { BatchLine } from './batch-provider.js';

/**
 * One line of an OpenAI or Azure OpenAI batch's output or error file
 * (`{custom_id, response: {status_code, body}, error}`), as the run keeps
 * it. What is stored is what the judge's reading needs and no more: of a
 * chat completion, its choices' message and finish reason, the usage, the
 * model and fingerprint the provider named; of an error answer, the error's
 * message, type, code and param. Every string is redacted (an error's text
 * as a message, with credential shapes removed; an answer's as data, with
 * the known keys removed), since some gateways echo the request's key.
 *
 * A 200 whose body is an error object, or no chat completion at all, ran
 * nothing the judge can read: it is a line not answered, sent again.
 */
const resultLineSchema = z.object({
  custom_id: z.string().min(1),
  response: z.object({ status_code: z.number().int(), body: z.unknown() }).nullish(),
  error: z.object({ code: z.string().nullish(), message: z.string().nullish() }).nullish(),
});

/** What is kept of a chat completion: z.object drops every other field. */
const keptCompletionSchema = z.object({
  model: z.string().optional(),
  system_fingerprint: z.string().nullish(),
  choices: z
    .array(
      z.object({
        finish_reason: z.string().nullish(),
        message: z
          .object({
            content: z.string().nullish(),
            refusal: z.string().nullish(),
            tool_calls: z
              .array(z.object({ type: z.string(), function: z.object({ name: z.string().optional(), arguments: z.string() }).optional() }))
              .optional(),
          })
          .optional(),
      }),
    )
    .min(1),
  usage: z.object({ prompt_tokens: z.number().optional(), completion_tokens: z.number().optional() }).nullish(),
});

/** What is kept of an error answer: the fields the SDK reads to classify it (OpenAI.APIError.generate). */
const keptErrorSchema = z.object({
  error: z.object({
    message: z.string().nullish(),
    type: z.string().nullish(),
    code: z.union([z.string(), z.number()]).nullish(),
    param: z.string().nullish(),
  }),
});

const usageSchema = z.looseObject({ usage: z.looseObject({ prompt_tokens: z.number(), completion_tokens: z.number() }) });

export function readChatResultLine(value: unknown): BatchLine {
  const line = resultLineSchema.safeParse(value);
  if (!line.success) return { kind: 'unreadable', requestId: customIdOf(value), reason: 'not a result line' };
  const { custom_id: requestId, response, error } = line.data;
  if (response === undefined || response === null) {
    // No answer: the job did not run the line (expired, cancelled) or failed it.
    const code = scrubSecrets(error?.code ?? 'not_run');
    return {
      kind: 'answer',
      requestId,
      answer: { kind: 'line-failed', code, message: scrubSecrets(error?.message ?? 'the job gave no answer for the request') },
    };
  }
  const billed = billedOf(response.body);
  if (response.status_code === 200) {
    const completion = keptCompletionSchema.safeParse(response.body);
    if (!completion.success) {
      const reason = keptErrorSchema.safeParse(response.body).success ? 'an error body under status 200' : 'not a result line';
      return { kind: 'unreadable', requestId, reason, billed };
    }
    const body = withCleanStrings(completion.data, (text) => removeKnownSecrets(text));
    return { kind: 'answer', requestId, answer: { kind: 'response', status: 200, body }, billed };
  }
  const kept = keptErrorSchema.safeParse(response.body);
  const body = kept.success
    ? withCleanStrings(kept.data, (text) => scrubSecrets(text))
    : { error: { message: scrubSecrets(`HTTP ${response.status_code}: ${JSON.stringify(response.body ?? null).slice(0, 500)}`) } };
  return { kind: 'answer', requestId, answer: { kind: 'response', status: response.status_code, body }, billed };
}

/** The tokens the provider counted for a line, when its body says. */
function billedOf(body: unknown): TokenUsage | undefined {
  const read = usageSchema.safeParse(body);
  return read.success ? { inputTokens: read.data.usage.prompt_tokens, outputTokens: read.data.usage.completion_tokens } : undefined;
}

function customIdOf(value: unknown): string | undefined {
  const id = typeof value === 'object' && value !== null ? (value as { custom_id?: unknown }).custom_id : undefined;
  return typeof id === 'string' && id !== '' ? id : undefined;
}
