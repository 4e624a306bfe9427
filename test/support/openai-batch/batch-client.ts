import OpenAI, { toFile } from 'openai';
import { expect } from 'vitest';
import type { Oracle } from '../chat-completion-answer.js';

/**
 * What the tests of the batch test server do with the real `openai` client
 * (upload, create, read a result file back), in one place for both of
 * their files.
 */

/** Rates a question by its length, so every line has an answer of its own. */
export const lengthOracle: Oracle = (request) => ({ json: { rating: (request.messages.at(-1)?.content ?? '').length } });

export function judgeBody(question: string, model = 'judge-model'): OpenAI.ChatCompletionCreateParamsNonStreaming {
  return {
    model,
    temperature: 0,
    max_tokens: 100,
    messages: [
      { role: 'system', content: 'Rate the chunk.' },
      { role: 'user', content: question },
    ],
  };
}

/** One line of an input file: a request input object of OpenAI's Batch API. */
export function lineOf(customId: string, body: object = judgeBody(`question ${customId}`), url = '/v1/chat/completions'): string {
  return JSON.stringify({ custom_id: customId, method: 'POST', url, body });
}

export async function submit(client: OpenAI, lines: readonly string[]): Promise<OpenAI.Batches.Batch> {
  const file = await client.files.create({ file: await toFile(Buffer.from(`${lines.join('\n')}\n`), 'requests.jsonl'), purpose: 'batch' });
  return client.batches.create({
    input_file_id: file.id,
    endpoint: '/v1/chat/completions',
    completion_window: '24h',
    metadata: { run: 'r1' },
  });
}

/** One line of an output or error file. */
export interface ResultLine {
  readonly id: string;
  readonly custom_id: string;
  readonly response: {
    readonly status_code: number;
    readonly request_id: string;
    readonly body: OpenAI.ChatCompletion & { error?: { param: string | null } };
  } | null;
  readonly error: { readonly code: string; readonly message: string } | null;
}

export async function resultLines(client: OpenAI, fileId: string | null | undefined): Promise<ResultLine[]> {
  if (fileId === null || fileId === undefined) return [];
  const text = await (await client.files.content(fileId)).text();
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as ResultLine);
}

export async function failureOf(work: Promise<unknown>): Promise<InstanceType<typeof OpenAI.APIError>> {
  return work.then(
    () => expect.fail('expected the request to fail'),
    (error: unknown) => (error instanceof OpenAI.APIError ? error : expect.fail(`expected an APIError, got ${String(error)}`)),
  );
}
