import type { CompletionRequest } from '../judge-answers/judge-completion.js';
import { outputRequest, type ChatMessage, type OutputMode } from '../judge-answers/output-modes.js';
import type { RequestParameters } from '../judge-answers/request-parameters.js';

/**
 * The body of one chat completion request: the model, the sampling
 * parameters still sent, and the messages with what asks for the output in
 * `mode`. One function for the online client and the batch lines, so a
 * judgment asked in a batch job is the very request it would be online.
 */
export function chatRequestBody(
  model: string,
  parameters: ReturnType<RequestParameters['current']>,
  mode: OutputMode,
  messages: readonly ChatMessage[],
  request: CompletionRequest,
) {
  return { model, ...parameters, ...outputRequest(mode, messages, request.schema, request.schemaName) };
}
