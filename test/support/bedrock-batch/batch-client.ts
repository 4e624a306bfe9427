import { jsonLines } from '../json-lines.js';
import { type BedrockClient, CreateModelInvocationJobCommand } from '@aws-sdk/client-bedrock';
import { GetObjectCommand, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';

/**
 * What the tests of the Bedrock batch test server do with the real AWS SDK:
 * write a job's input to S3, create the job, read its output back.
 */
export interface JobClients {
  readonly bedrock: BedrockClient;
  readonly s3: S3Client;
  readonly bucket: string;
}

export interface CreatedJob {
  readonly jobArn: string;
  /** The key prefix of its output objects: `<folder>input.jsonl.out`, `<folder>manifest.json.out`. */
  readonly folder: string;
}

const MODEL = 'anthropic.claude-3-5-haiku-20241022-v1:0';
const ROLE = 'arn:aws:iam::123456789012:role/batch';

/** Writes records r0… (record i asks about i + 1 characters, so a length oracle rates it i + 1) under `name`, and creates a Converse job of them named so. */
export async function createJob(clients: JobClients, name: string, records: number): Promise<CreatedJob> {
  const lines = Array.from({ length: records }, (_, index) => ({
    recordId: `r${index}`,
    modelInput: { messages: [{ role: 'user', content: [{ text: 'x'.repeat(index + 1) }] }], inferenceConfig: { maxTokens: 50 } },
  }));
  const body = lines.map((line) => `${JSON.stringify(line)}\n`).join('');
  await clients.s3.send(new PutObjectCommand({ Bucket: clients.bucket, Key: `in/${name}/input.jsonl`, Body: body }));
  const { jobArn = '' } = await clients.bedrock.send(
    new CreateModelInvocationJobCommand({
      jobName: name,
      roleArn: ROLE,
      modelId: MODEL,
      modelInvocationType: 'Converse',
      inputDataConfig: { s3InputDataConfig: { s3Uri: `s3://${clients.bucket}/in/${name}/input.jsonl` } },
      outputDataConfig: { s3OutputDataConfig: { s3Uri: `s3://${clients.bucket}/out/${name}/` } },
    }),
  );
  return { jobArn, folder: `out/${name}/${jobArn.split('/').at(-1)}/` };
}

/** The object's text, or the name of the error S3 answered (NoSuchKey). */
export async function objectText(clients: JobClients, key: string): Promise<string> {
  return clients.s3.send(new GetObjectCommand({ Bucket: clients.bucket, Key: key })).then(
    async (object) => (await object.Body?.transformToString('utf8')) ?? '',
    (error: unknown) => (error instanceof Error ? error.name : String(error)),
  );
}

/** One line of a job's output, as far as these tests read it. */
export interface OutputLine {
  readonly recordId: string;
  readonly modelOutput?: { readonly usage: { readonly inputTokens: number; readonly outputTokens: number } };
  readonly error?: { readonly errorCode: number; readonly errorMessage: string };
}

/** The output lines read as JSON, undefined where a line is not. */
export function outputLines(text: string): (OutputLine | undefined)[] {
  return jsonLines<OutputLine>(text);
}
