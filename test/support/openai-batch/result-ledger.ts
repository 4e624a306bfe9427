import type { Usage } from './broken-lines.js';

/**
 * What a batch test server sent its oracle and billed, kept so a test can
 * hold a client's own report against it: how many times each request id
 * came in a job's input, and the tokens of every answered line the server
 * wrote into a result file (broken, duplicated and unknown lines
 * included, as a provider bills what it produced). Shared by the OpenAI
 * and the Bedrock batch test servers.
 */
export interface BilledTokens {
  readonly input_tokens: number;
  readonly output_tokens: number;
  /** Lines billed: answered lines whose answer counts tokens. */
  readonly lines: number;
}

export class ResultLedger {
  /** request id → how many lines of the jobs' inputs carried it, over every job created. */
  readonly sent = new Map<string, number>();
  private readonly billedLines: { readonly jobId: string; readonly usage: Usage }[] = [];

  countSent(ids: Iterable<string>): void {
    for (const id of ids) this.sent.set(id, (this.sent.get(id) ?? 0) + 1);
  }

  bill(jobId: string, usages: readonly Usage[]): void {
    for (const usage of usages) this.billedLines.push({ jobId, usage });
  }

  /** The tokens billed for that job, or for every job. */
  billed(jobId?: string): BilledTokens {
    const lines = this.billedLines.filter((line) => jobId === undefined || line.jobId === jobId);
    return {
      input_tokens: lines.reduce((sum, line) => sum + line.usage.input, 0),
      output_tokens: lines.reduce((sum, line) => sum + line.usage.output, 0),
      lines: lines.length,
    };
  }
}

/** The ids a JSONL input names under `field`, from the lines that are JSON objects with a string there: a bad line names none. */
export function idsOfLines(text: string, field: string): string[] {
  return text.split('\n').flatMap((line) => {
    try {
      const value: unknown = JSON.parse(line);
      const id = typeof value === 'object' && value !== null ? Object.entries(value).find(([key]) => key === field)?.[1] : undefined;
      return typeof id === 'string' ? [id] : [];
    } catch {
      return [];
    }
  });
}
