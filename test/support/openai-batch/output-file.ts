import { z } from 'zod';
import { chatCompletionAnswer } from '../chat-completion-answer.js';
import { writeResultLines, type BrokenLineFaults, type ResultLineShape, type WrittenResult } from './broken-lines.js';
import type { LineOutcome } from './line-answers.js';
import { errorText, type ProviderTextFaults } from './provider-text.js';

/**
 * The output file of a finished batch (its lines answered 200), with the
 * plan's broken lines written into it; and its error file, as it always was.
 */
export interface OutputFaults extends BrokenLineFaults {
  /**
   * n output lines (the first in written order after those notJsonLines took) keep
   * `response.status_code` 200 but carry an error object `{error: {message, type, code}}` as body.
   */
  readonly errorBodyUnder200?: number;
}

/** One line of an output or error file, as the API writes it. */
export type ResultFileLine = { readonly id: string; readonly custom_id: string } & LineOutcome;

const usageSchema = z.object({ usage: z.object({ prompt_tokens: z.number(), completion_tokens: z.number() }) });
const ERROR_UNDER_200 = 'The server had an error while processing your request. Sorry about that!';

/** The output file's text, which requests its faults hit and what it bills. */
export function writeOutputFile(
  batchId: string,
  lines: readonly ResultFileLine[],
  faults: OutputFaults & ProviderTextFaults,
  apiKey: string | undefined,
): WrittenResult {
  const suffix = batchId.replace(/^batch_/, '');
  const shape: ResultLineShape<ResultFileLine> = {
    idOf: (line) => line.custom_id,
    usageOf: (line) => {
      const parsed = line.response?.status_code === 200 ? usageSchema.safeParse(line.response.body) : undefined;
      return parsed?.success === true ? { input: parsed.data.usage.prompt_tokens, output: parsed.data.usage.completion_tokens } : undefined;
    },
    withAnswerOf: (line, other) => ({
      ...line,
      // The copy must differ from the first answer even when it borrows its own: another completion id.
      response:
        other.response === null
          ? line.response
          : { ...other.response, body: { ...other.response.body, id: `chatcmpl-test-again-${line.id}` } },
    }),
    unknownLine: (index, like) => ({
      id: `batch_req_${suffix}_unknown_${index + 1}`,
      custom_id: `unknown-${suffix}-${index + 1}`,
      response: {
        status_code: 200,
        request_id: `req_unknown_${suffix}_${index + 1}`,
        body: like?.response?.body ?? answerToNoRequest(index),
      },
      error: null,
    }),
    withErrorBody: (line) => ({
      ...line,
      response:
        line.response === null
          ? null
          : {
              ...line.response,
              body: { error: { message: errorText(ERROR_UNDER_200, apiKey, faults), type: 'server_error', code: 'server_error' } },
            },
    }),
  };
  return writeResultLines(lines, faults, shape);
}

/** An error file's text: one line each, as they come. */
export function writeErrorFile(lines: readonly ResultFileLine[]): string {
  return lines.map((line) => `${JSON.stringify(line)}\n`).join('');
}

/** A chat completion for an unknown line when the batch answered none of its own to borrow. */
function answerToNoRequest(index: number): object {
  const request = { model: 'unknown', messages: [{ role: 'user', content: 'a request of no batch' }] };
  return chatCompletionAnswer(request, { text: 'An answer to no request of this batch.' }, index).body;
}
