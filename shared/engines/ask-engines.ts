import type { Result } from '../schema/result.js';
import pLimit from 'p-limit';
import type { RetrievedChunk } from '../schema/eval-case.js';
import { rankedContext, type Engine, type EngineFailure, type EngineRequest } from './engine.js';

/** One engine's answer shaped as a case's engine output (EngineOutput), plus its latency. */
export interface LiveEngineOutput {
  readonly retrieved_context: RetrievedChunk[];
  readonly response?: string;
  readonly tags: Record<string, unknown>;
  readonly latency_ms: number;
  /** Attempts the answer took, failed ones included. */
  readonly attempts: number;
}

export type EngineAsk = Result<LiveEngineOutput, EngineFailure>;

export interface AskOptions {
  /** Engines asked at once. */
  readonly concurrency: number;
  /** Aborts every call still running or waiting to retry. */
  readonly deadline: AbortSignal;
}

/**
 * Asks every engine about one case, at most `concurrency` at a time, and
 * returns each engine's output (ranks 1..n in its order) or its failure, by
 * engine name. Every engine gets an entry: a failure of one never hides the
 * others' answers.
 */
export async function askEngines(
  engines: readonly Engine[],
  request: EngineRequest,
  options: AskOptions,
): Promise<Record<string, EngineAsk>> {
  if (!Number.isInteger(options.concurrency) || options.concurrency < 1) {
    throw new Error(`Expected concurrency to be a whole number from 1 up, got ${options.concurrency}`);
  }
  const limit = pLimit(options.concurrency);
  const asks = await Promise.all(
    engines.map((engine) =>
      limit(async (): Promise<[string, EngineAsk]> => {
        const result = await engine.call(request, options.deadline);
        if (!result.ok) return [engine.name, result];
        const answer = result.value;
        const output: LiveEngineOutput = {
          retrieved_context: rankedContext(answer.hits),
          ...(answer.response === undefined ? {} : { response: answer.response }),
          tags: {},
          latency_ms: answer.latency_ms,
          attempts: answer.attempts,
        };
        return [engine.name, { ok: true, value: output }];
      }),
    ),
  );
  return Object.fromEntries(asks);
}
