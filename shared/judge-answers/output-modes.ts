import { z } from 'zod';

/**
 * How a judge asks for JSON, most to least strict:
 *
 * 1. `json_schema`: response_format with the schema, decoded under constraint where the server can;
 * 2. `json_object`: response_format json_object (valid JSON guaranteed, the schema in the prompt):
 *    more servers have JSON mode than schemas (older vLLM, Ollama, gateways);
 * 3. `tool`: a forced tool call with the schema as its parameters, for servers with function
 *    calling and no response_format;
 * 4. `text`: the schema in the prompt and JSON in the text, which any chat model can follow.
 *
 * json_object comes before tools because it keeps the answer in the message content, where every
 * server puts it, while tool calling is the feature servers implement most unevenly (no forced
 * tool_choice, arguments as prose).
 */
export const OUTPUT_MODES = ['json_schema', 'json_object', 'tool', 'text'] as const;
export type OutputMode = (typeof OUTPUT_MODES)[number];

export interface ChatMessage {
  readonly role: 'system' | 'user' | 'assistant';
  readonly content: string;
}

/** The mode one step below `mode` (text stays text). */
export function modeBelow(mode: OutputMode): OutputMode {
  return OUTPUT_MODES[Math.min(OUTPUT_MODES.indexOf(mode) + 1, OUTPUT_MODES.length - 1)] ?? 'text';
}

/** Modes a server may silently ignore (it answers prose): both response_format modes. */
export function mayBeIgnored(mode: OutputMode): boolean {
  return mode === 'json_schema' || mode === 'json_object';
}

/**
 * The JSON schema sent to the server (without the $schema key, which some
 * servers reject). Made once a schema, and frozen: each judgment asks for it
 * twice (its cache key, its request), and converting it cost about a
 * twentieth of a judgment's CPU.
 */
export function jsonSchemaOf(schema: z.ZodType): Readonly<Record<string, unknown>> {
  let made = jsonSchemas.get(schema);
  if (made === undefined) {
    const { $schema: _ignored, ...rest } = z.toJSONSchema(schema) as Record<string, unknown>;
    made = deepFrozen(rest);
    jsonSchemas.set(schema, made);
  }
  return made;
}

const jsonSchemas = new WeakMap<z.ZodType, Readonly<Record<string, unknown>>>();

function deepFrozen<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const inner of Object.values(value)) deepFrozen(inner);
    Object.freeze(value);
  }
  return value;
}

/** The part of a chat request that asks for the output: response_format, tools, or the schema in the prompt. */
export function outputRequest(mode: OutputMode, messages: readonly ChatMessage[], schema: z.ZodType, schemaName: string) {
  const jsonSchema = jsonSchemaOf(schema);
  if (mode === 'json_schema') {
    return {
      messages: [...messages],
      response_format: { type: 'json_schema' as const, json_schema: { name: schemaName, schema: jsonSchema, strict: true } },
    };
  }
  if (mode === 'tool') {
    return {
      messages: [...messages],
      tools: [{ type: 'function' as const, function: { name: schemaName, description: 'Record the verdict', parameters: jsonSchema } }],
      tool_choice: { type: 'function' as const, function: { name: schemaName } },
    };
  }
  const withSchema = withSchemaInPrompt(messages, jsonSchema);
  return mode === 'json_object' ? { messages: withSchema, response_format: { type: 'json_object' as const } } : { messages: withSchema };
}

function withSchemaInPrompt(messages: readonly ChatMessage[], jsonSchema: Readonly<Record<string, unknown>>): ChatMessage[] {
  // json_object mode also needs the word "JSON" in the prompt on OpenAI, which this sentence carries.
  const instruction = `Reply with only a JSON object that matches this JSON Schema:\n${JSON.stringify(jsonSchema)}`;
  const [first, ...rest] = messages;
  return first?.role === 'system'
    ? [{ role: 'system', content: `${first.content}\n\n${instruction}` }, ...rest]
    : [{ role: 'system', content: instruction }, ...messages];
}
