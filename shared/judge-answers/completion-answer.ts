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
 * What readChoice reads of a chat completion: the openai SDK's ChatCompletion
 * has it, and so has a batch job's answer once its schema has checked it
 * (chat-batch-completer.ts).
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
