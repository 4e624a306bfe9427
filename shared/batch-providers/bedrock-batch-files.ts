import { z } from 'zod';
import { removeKnownSecrets, scrubSecrets, withCleanStrings } from '../secrets/scrub-secrets.js';
import type { BatchLine } from './batch-provider.js';
import type { BatchAnswer } from '../schema/batch-request.js';

/**
 * The S3 side of Amazon Bedrock's batch inference jobs. A job reads one
 * JSONL file of records `{"recordId", "modelInput"}` and writes, under its
 * output location, a folder named by the job's id holding `<input file
 * name>.out` (one line a record it ran: `{recordId, modelInput, modelOutput}`,
 * or `error: {errorCode, errorMessage}` in place of the output) and
 * `manifest.json.out` (the job's counts). The lines come in no promised
 * order: they are read by recordId, which is the request's id.
 */

/** A location in S3: the bucket and the key prefix under it (no leading slash, a trailing one when not empty). */
export interface S3Location {
  readonly bucket: string;
  readonly prefix: string;
}

export const INPUT_FILE = 'input.jsonl';

/** `s3://bucket/some/prefix` as its bucket and prefix. */
export function s3LocationOf(uri: string): S3Location {
  const match = /^s3:\/\/([^/]+)\/?(.*)$/.exec(uri);
  if (match === null) throw new Error(`Expected an S3 URI such as s3://my-bucket/assay, got "${uri}"`);
  const prefix = (match[2] ?? '').replace(/\/+$/, '');
  return { bucket: match[1] ?? '', prefix: prefix === '' ? '' : `${prefix}/` };
}

/** The folder of one job's files: under the run's own prefix, so a stack's service role may touch nothing else (runs/<run>/batch/bedrock/). */
export function jobFolder(location: S3Location, runId: string, jobKey: string): string {
  return `${location.prefix}runs/${runId}/batch/bedrock/${jobKey}/`;
}

export const s3Uri = (bucket: string, key: string): string => `s3://${bucket}/${key}`;

/** `s3://bucket/key` as its bucket and key. */
export function s3ObjectOf(uri: string): { bucket: string; key: string } {
  const match = /^s3:\/\/([^/]+)\/(.+)$/.exec(uri);
  if (match === null) throw new Error(`Expected the S3 URI of an object, such as s3://my-bucket/a/key, got "${uri}"`);
  return { bucket: match[1] ?? '', key: match[2] ?? '' };
}

/** The job id Bedrock names a job's output folder by: the last part of its ARN (`...:model-invocation-job/<id>`). */
export function jobIdOf(jobArn: string): string {
  return jobArn.slice(jobArn.lastIndexOf('/') + 1);
}

/** One line of a job's output file. */
export const outputLineSchema = z.looseObject({
  recordId: z.string(),
  modelOutput: z.record(z.string(), z.unknown()).optional(),
  error: z.looseObject({ errorCode: z.union([z.number(), z.string()]).optional(), errorMessage: z.string().optional() }).optional(),
});
export type OutputLine = z.infer<typeof outputLineSchema>;

/** The job's summary, `manifest.json.out`. */
export const manifestSchema = z.looseObject({
  totalRecordCount: z.number().int().nonnegative(),
  processedRecordCount: z.number().int().nonnegative().optional(),
  successRecordCount: z.number().int().nonnegative(),
  errorRecordCount: z.number().int().nonnegative(),
});

/** The HTTP status an error name stands for, as Bedrock Runtime answers it online. */
const STATUS_OF: Readonly<Record<string, number>> = {
  ValidationException: 400,
  AccessDeniedException: 403,
  ResourceNotFoundException: 404,
  ModelTimeoutException: 408,
  ModelErrorException: 424,
  ThrottlingException: 429,
  ModelNotReadyException: 429,
  ServiceQuotaExceededException: 429,
  InternalServerException: 500,
  ServiceUnavailableException: 503,
};
const NAME_OF: Readonly<Record<number, string>> = {
  400: 'ValidationException',
  403: 'AccessDeniedException',
  404: 'ResourceNotFoundException',
  408: 'ModelTimeoutException',
  424: 'ModelErrorException',
  429: 'ThrottlingException',
  500: 'InternalServerException',
  503: 'ServiceUnavailableException',
};

/** What is kept of a record's modelOutput: what the Converse reading needs (z.object drops every other field). */
const keptOutputSchema = z.object({
  output: z.object({
    message: z.object({
      role: z.string().optional(),
      content: z.array(
        z.object({
          text: z.string().optional(),
          toolUse: z.object({ toolUseId: z.string().optional(), name: z.string().optional(), input: z.unknown().optional() }).optional(),
        }),
      ),
    }),
  }),
  stopReason: z.string().optional(),
  usage: z.object({ inputTokens: z.number().optional(), outputTokens: z.number().optional() }).optional(),
});

/**
 * One line of a job's output file, as the run keeps it: a record's output
 * pruned to what the judge reads and its strings cleaned of the known keys
 * (an answer is data); an error as the status and the AWS error body
 * (`{__type, message}`) an online call would have had, its message redacted
 * (a gateway may echo the key). An output that is no Converse response is
 * a line not answered, sent again.
 */
export function readOutputLine(value: unknown): BatchLine {
  const line = outputLineSchema.safeParse(value);
  if (!line.success) {
    const id = typeof value === 'object' && value !== null ? (value as { recordId?: unknown }).recordId : undefined;
    return { kind: 'unreadable', requestId: typeof id === 'string' && id !== '' ? id : undefined, reason: 'not a result line' };
  }
  const { recordId: requestId, modelOutput } = line.data;
  if (modelOutput === undefined) return { kind: 'answer', requestId, answer: answerOfLine(line.data) };
  const usage = z.looseObject({ usage: z.looseObject({ inputTokens: z.number(), outputTokens: z.number() }) }).safeParse(modelOutput);
  const billed = usage.success ? { inputTokens: usage.data.usage.inputTokens, outputTokens: usage.data.usage.outputTokens } : undefined;
  const kept = keptOutputSchema.safeParse(modelOutput);
  if (!kept.success) return { kind: 'unreadable', requestId, reason: 'not a result line', billed };
  const body = withCleanStrings(kept.data, (text) => removeKnownSecrets(text));
  return { kind: 'answer', requestId, answer: { kind: 'response', status: 200, body }, billed };
}

/**
 * An error line as the answer an online Converse call would have had: the
 * status and the AWS error body (`{__type, message}`) the service would have
 * answered. The error code is a status (`400`) or a name
 * (`ValidationException`); an unknown one is taken as a fault of the service
 * (500), so the line is sent once more.
 */
export function answerOfLine(line: OutputLine): BatchAnswer['answer'] {
  if (line.modelOutput !== undefined) return { kind: 'response', status: 200, body: line.modelOutput };
  const code = line.error?.errorCode;
  const numeric = typeof code === 'number' ? code : typeof code === 'string' && /^\d{3}$/.test(code) ? Number(code) : undefined;
  const status = numeric ?? (typeof code === 'string' ? STATUS_OF[code] : undefined) ?? 500;
  const name = typeof code === 'string' && numeric === undefined ? scrubSecrets(code) : (NAME_OF[status] ?? 'InternalServerException');
  const message = scrubSecrets(line.error?.errorMessage ?? 'the batch job gave no message');
  return { kind: 'response', status, body: { __type: name, message } };
}
