import { z } from 'zod';
import type { OutputMode } from './output-modes.js';
import { scrubSecrets } from '../secrets/scrub-secrets.js';
import { extractJson } from './answer-parsing.js';

/**
 * What one chat completion answered besides its text: a refusal
 * (`message.refusal`), why it stopped (`finish_reason`), and the model (and
 * its `system_fingerprint`) the server says answered. A refusal and an answer cut by the token limit or a
 * content filter are errors a repair request cannot fix, so they get none.
 */
export interface ChoiceAnswer {
  readonly text: string;
  readonly refusal: string | undefined;
  /** Why the answer ended, in OpenAI's words: `stop`, `length` (the token limit), `content_filter`, `tool_calls`. */
  readonly finishReason: string | undefined;
  readonly reportedModel: string | undefined;
  /** The backend configuration that answered, as OpenAI names it (`system_fingerprint`); absent when the server names none. */
  readonly systemFingerprint?: string;
  /** How the server itself named why it stopped, for messages (`stopReason guardrail_intervened`); default `finish_reason <finishReason>`. */
  readonly stopNamed?: string;
}

/**
 * What readChoice reads of a chat completion: a server's answer (online, or
 * a batch job's) once completionReadSchema has checked it.
 */
export interface CompletionRead {
  readonly model?: unknown;
  readonly system_fingerprint?: unknown;
  readonly choices: readonly {
    readonly finish_reason?: string | null | undefined;
    readonly message?:
      | {
          readonly content?: string | null | undefined;
          readonly refusal?: string | null | undefined;
          readonly tool_calls?:
            | readonly { readonly type: string; readonly function?: { readonly arguments: string } | undefined }[]
            | undefined;
        }
      | undefined;
  }[];
}

/** What an answer must have to be read as a chat completion; any other field is let through. */
export const completionReadSchema: z.ZodType<CompletionRead> = z.looseObject({
  choices: z.array(
    z.looseObject({
      finish_reason: z.string().nullish(),
      message: z
        .looseObject({
          content: z.string().nullish(),
          refusal: z.string().nullish(),
          tool_calls: z
            .array(z.looseObject({ type: z.string(), function: z.looseObject({ arguments: z.string() }).optional() }))
            .optional(),
        })
        .optional(),
    }),
  ),
});

/** The longest excerpt of an answer that is no chat completion shown in its error. */
const EXCERPT_CHARACTERS = 120;

/**
 * Why `body` is no chat completion, with the start of what came: a web page
 * (a base URL that names a site's page rather than its API), another API's
 * JSON. Credentials in it are redacted.
 */
export function notACompletion(body: unknown, issues: readonly z.core.$ZodIssue[], secrets: readonly string[]): string {
  const issue = issues[0];
  const where = issue === undefined || issue.path.length === 0 ? '' : ` at ${issue.path.join('.')}`;
  const text = typeof body === 'string' ? body : (JSON.stringify(body) ?? String(body));
  const excerpt = text.length > EXCERPT_CHARACTERS ? `${text.slice(0, EXCERPT_CHARACTERS)}...` : text;
  const what = typeof body === 'string' ? 'text, not JSON' : `${issue?.message ?? 'unreadable'}${where}`;
  return scrubSecrets(`no chat completion (${what}): ${JSON.stringify(excerpt)}`, secrets);
}

export function readChoice(completion: CompletionRead, mode: OutputMode): ChoiceAnswer {
  const choice = completion.choices[0];
  const message = choice?.message;
  const toolArguments = message?.tool_calls?.find((call) => call.type === 'function')?.function?.arguments;
  const refusal = typeof message?.refusal === 'string' && message.refusal.trim() !== '' ? message.refusal : undefined;
  return {
    text: (mode === 'tool' ? toolArguments : undefined) ?? message?.content ?? toolArguments ?? '',
    refusal,
    finishReason: choice?.finish_reason ?? undefined,
    reportedModel: typeof completion.model === 'string' && completion.model !== '' ? completion.model : undefined,
    ...(typeof completion.system_fingerprint === 'string' && completion.system_fingerprint !== ''
      ? { systemFingerprint: completion.system_fingerprint }
      : {}),
  };
}

/**
 * The error of an answer that no repair can fix, or undefined. An answer cut
 * at the token limit that still parses is kept: the verdict is whole.
 */
export function stoppedAnswer(answer: ChoiceAnswer, parsed: boolean, maxTokens: number, secrets: readonly string[]): string | undefined {
  if (answer.refusal !== undefined) return scrubSecrets(`the judge model refused to answer: ${answer.refusal}`, secrets);
  if (answer.finishReason === 'content_filter') {
    const named = answer.stopNamed ?? 'finish_reason content_filter';
    return `the judge server's content filter stopped the answer (${named}); this judgment cannot be made on this server`;
  }
  if (answer.finishReason === 'length' && !parsed) return `the answer was cut at max_tokens=${maxTokens}; raise judge.max_tokens`;
  return undefined;
}

/** An answer with no JSON object at all, and not a refusal: what a server that ignores response_format sends. */
export function isProse(answer: ChoiceAnswer): boolean {
  return (
    answer.refusal === undefined &&
    answer.finishReason !== 'length' &&
    answer.finishReason !== 'content_filter' &&
    !extractJson(answer.text).ok
  );
}
