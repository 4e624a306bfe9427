import type { ConverseCommandInput, Message, SystemContentBlock, ToolInputSchema } from '@aws-sdk/client-bedrock-runtime';
import type { z } from 'zod';
import type { ChoiceAnswer } from '../judge-answers/completion-answer.js';
import { jsonSchemaOf, outputRequest, type ChatMessage, type OutputMode } from '../judge-answers/output-modes.js';

/**
 * A judgment as Amazon Bedrock's Converse API takes and gives it. The system
 * prompt goes in `system`, the turns in `messages` as text blocks. The
 * judge's answer schema is asked for as a forced tool: `toolConfig` with one
 * tool whose input schema is the judge's JSON schema and `toolChoice` naming
 * it, so the answer arrives as the tool's `input`; a model without forced
 * tool use gets the schema in the system prompt and answers JSON in text
 * (the `text` mode of the OpenAI ladder). The answer is read into the same
 * shape as a chat completion's, with `stopReason` read as `finish_reason`.
 */

/** The output modes Converse offers, most to least strict. */
export const CONVERSE_MODES: readonly OutputMode[] = ['tool', 'text'];

export interface ConverseParameters {
  readonly modelId: string;
  readonly maxTokens: number;
  /** Undefined: not sent (a model that takes only its default). */
  readonly temperature: number | undefined;
}

export function converseInput(
  mode: OutputMode,
  messages: readonly ChatMessage[],
  schema: z.ZodType,
  schemaName: string,
  parameters: ConverseParameters,
): ConverseCommandInput {
  const sent = mode === 'tool' ? messages : outputRequest('text', messages, schema, schemaName).messages;
  const system: SystemContentBlock[] = sent.filter((message) => message.role === 'system').map((message) => ({ text: message.content }));
  const turns: Message[] = sent
    .filter((message) => message.role !== 'system')
    .map((message) => ({ role: message.role === 'assistant' ? 'assistant' : 'user', content: [{ text: message.content }] }));
  const inferenceConfig = {
    maxTokens: parameters.maxTokens,
    ...(parameters.temperature === undefined ? {} : { temperature: parameters.temperature }),
  };
  const base: ConverseCommandInput = {
    modelId: parameters.modelId,
    messages: turns,
    inferenceConfig,
    ...(system.length === 0 ? {} : { system }),
  };
  if (mode !== 'tool') return base;
  // A JSON schema is JSON: the SDK's document type, which zod's JSON Schema output is not declared as.
  const inputSchema = { json: jsonSchemaOf(schema) } as ToolInputSchema;
  return {
    ...base,
    toolConfig: {
      tools: [{ toolSpec: { name: schemaName, description: 'Record the verdict', inputSchema } }],
      toolChoice: { tool: { name: schemaName } },
    },
  };
}

/** stopReason as finish_reason: the token limit (or the context window) cut it, or a guardrail or filter stopped it. */
const FINISH_REASONS: Readonly<Record<string, string>> = {
  end_turn: 'stop',
  stop_sequence: 'stop',
  tool_use: 'tool_calls',
  max_tokens: 'length',
  model_context_window_exceeded: 'length',
  guardrail_intervened: 'content_filter',
  content_filtered: 'content_filter',
};

/**
 * What converseAnswer reads of a Converse response: the SDK's output has it,
 * and so has a batch job's record once its schema has checked it
 * (bedrock-batch-completer.ts).
 */
export interface ConverseRead {
  readonly output?:
    | {
        readonly message?:
          | {
              readonly content?:
                | readonly { readonly text?: unknown; readonly toolUse?: { readonly input?: unknown } | undefined }[]
                | undefined;
            }
          | undefined;
      }
    | undefined;
  readonly stopReason?: string | undefined;
  /** Set by a prompt router: the model it chose to answer (Converse names no model otherwise). */
  readonly trace?: { readonly promptRouter?: { readonly invokedModelId?: unknown } | undefined } | undefined;
}

export function converseAnswer(output: ConverseRead, mode: OutputMode): ChoiceAnswer {
  const content = output.output?.message?.content ?? [];
  const toolInput = content.find((block) => block.toolUse !== undefined)?.toolUse?.input;
  const toolText = toolInput === undefined ? undefined : JSON.stringify(toolInput);
  const text = content.flatMap((block) => (typeof block.text === 'string' ? [block.text] : [])).join('');
  const stopReason = output.stopReason;
  const routed = output.trace?.promptRouter?.invokedModelId;
  return {
    text: (mode === 'tool' ? toolText : undefined) ?? (text === '' ? toolText : text) ?? '',
    refusal: undefined,
    finishReason: stopReason === undefined ? undefined : (FINISH_REASONS[stopReason] ?? stopReason),
    reportedModel: typeof routed === 'string' && routed !== '' ? routed : undefined,
    ...(stopReason === undefined ? {} : { stopNamed: `stopReason ${stopReason}` }),
  };
}
