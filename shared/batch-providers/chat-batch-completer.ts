import OpenAI from 'openai';
import { chatRequestBody } from '../judge-client/chat-request-body.js';
import { completionReadSchema, isProse, readChoice } from '../judge-answers/completion-answer.js';
import { classifyFailure } from '../judge-client/judge-failure.js';
import { mayBeIgnored, OUTPUT_MODES } from '../judge-answers/output-modes.js';
import { BatchReplayCompleter, type BatchReplaySettings, type BatchWire } from './batch-replay.js';

/**
 * Batch judgments on the chat completions wire (OpenAI and Azure OpenAI),
 * replayed from the answers of the run's jobs (batch-replay.ts): each body is
 * the online client's (chat-request-body.ts), each answer read as a chat
 * completion, each error answer classified as the openai SDK's error for it.
 */
export interface ChatBatchCompleterSettings extends BatchReplaySettings {
  /** The body's model: the model, or on Azure OpenAI the deployment's name. */
  readonly bodyModel: string;
}

export function chatWire(bodyModel: string): BatchWire {
  return {
    modes: OUTPUT_MODES,
    body: (mode, parameters, messages, request) => chatRequestBody(bodyModel, parameters.current(), mode, messages, request),
    read(body, mode) {
      const completion = completionReadSchema.safeParse(body);
      if (!completion.success)
        return {
          ok: false,
          error: `the batch job's answer is not a chat completion: ${completion.error.issues[0]?.message ?? 'unreadable'}`,
        };
      return { ok: true, value: readChoice(completion.data, mode) };
    },
    ignored: (choice, mode) => mayBeIgnored(mode) && isProse(choice),
    failure: (status, body) => classifyFailure(errorOf(status, body), '', 'the key of the batch jobs'),
    refusedEverywhere: (_failure, status) => `the judge server refused the request in every form: HTTP ${status}`,
  };
}

export class ChatBatchCompleter extends BatchReplayCompleter {
  constructor(settings: ChatBatchCompleterSettings) {
    super(chatWire(settings.bodyModel), settings);
  }
}

/** The error an online call would have thrown for this status and body: the SDK's own reading of an error answer. */
function errorOf(status: number, body: unknown): InstanceType<typeof OpenAI.APIError> {
  const json = typeof body === 'object' && body !== null ? body : undefined;
  return OpenAI.APIError.generate(status, json, json === undefined ? String(body ?? '') : undefined, new Headers());
}
