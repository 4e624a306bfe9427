import { z } from 'zod';
import { converseAnswer, converseInput, CONVERSE_MODES } from '../judge-client/bedrock-converse.js';
import { classifyBedrockFailure, type BedrockWire } from '../judge-client/bedrock-failure.js';
import { BatchReplayCompleter, type BatchReplaySettings, type BatchWire } from './batch-replay.js';

/**
 * Batch judgments on Amazon Bedrock, replayed from the answers of the run's
 * model invocation jobs (batch-replay.ts). Each request is the Converse
 * request the online Bedrock client sends (bedrock-converse.ts): the judge's
 * schema as a forced tool, stepping down to JSON in text when the model
 * refuses it, temperature dropped when the model refuses it; each answer
 * (a record's modelOutput, a Converse response) is read as the online client
 * reads it, and each error line classified as the online client classifies
 * the same error (bedrock-failure.ts). The request keeps its modelId, so
 * that two models asked the same prompt are two requests; the job's record
 * leaves it out (the job names the model).
 */
export interface BedrockBatchCompleterSettings extends BatchReplaySettings {
  /** The Bedrock model id (or inference profile id) the jobs run. */
  readonly modelId: string;
}

/** What a record's modelOutput must have to be read as a Converse response. */
const converseOutputSchema = z.looseObject({
  output: z.looseObject({
    message: z.looseObject({
      content: z.array(
        z.looseObject({ text: z.unknown().optional(), toolUse: z.looseObject({ input: z.unknown().optional() }).optional() }),
      ),
    }),
  }),
  stopReason: z.string().optional(),
});

/** An error line, as bedrock-batch-files.ts keeps it: the AWS error body. */
const errorBodySchema = z.looseObject({ __type: z.string().optional(), message: z.string().optional() });

/** Where a batch answer came from, for the failure messages that name the wire (none of them is a protocol's). */
const BATCH_WIRE: BedrockWire = { url: 'https://bedrock.amazonaws.com/', version: '2', chosen: false, answered: true };

export function converseWire(modelId: string, maxTokens: number): BatchWire {
  const target = `model ${modelId} in a batch job`;
  return {
    modes: CONVERSE_MODES,
    body(mode, parameters, messages, request) {
      const sent = parameters.current();
      return {
        ...converseInput(mode, messages, request.schema, request.schemaName, {
          modelId,
          maxTokens: sent.max_tokens ?? maxTokens,
          temperature: sent.temperature,
        }),
      };
    },
    read(body, mode) {
      const output = converseOutputSchema.safeParse(body);
      if (!output.success)
        return {
          ok: false,
          error: `the batch job's answer is not a Converse response: ${output.error.issues[0]?.message ?? 'unreadable'}`,
        };
      return { ok: true, value: converseAnswer(output.data, mode) };
    },
    // Converse has no mode a model silently ignores: a forced tool is used or refused.
    ignored: () => false,
    failure: (status, body) => classifyBedrockFailure(errorOf(status, body), target, BATCH_WIRE),
    refusedEverywhere(failure, status, body) {
      const what = failure.kind === 'parameter-refused' ? `the parameter ${failure.parameter}` : 'every output mode, JSON in text included';
      return `Amazon Bedrock refused ${what}: ${errorOf(status, body).message}`;
    },
  };
}

export class BedrockBatchCompleter extends BatchReplayCompleter {
  constructor(settings: BedrockBatchCompleterSettings) {
    super(converseWire(settings.modelId, settings.maxTokens), settings);
  }
}

/** The error the AWS SDK would have thrown for this status and body: its name, message and HTTP status. */
function errorOf(status: number, body: unknown): Error {
  const parsed = errorBodySchema.safeParse(body);
  const error = new Error(parsed.success ? (parsed.data.message ?? `HTTP ${status}`) : String(body));
  error.name = (parsed.success ? parsed.data.__type : undefined) ?? 'ValidationException';
  return Object.assign(error, { $metadata: { httpStatusCode: status }, $fault: status >= 500 ? 'server' : 'client' });
}
