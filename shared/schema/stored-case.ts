import { z } from 'zod';
import { compactRanking, compactRankingSchema, expandRanking } from './compact-ranking.js';
import { engineOutputSchema, evalCaseSchema, type EngineOutput, type EvalCase } from './eval-case.js';

/**
 * A claim-checked case (`runs/<run>/cases/<case>.json`): the case as ingest
 * read it, with each engine's list in compact form (`ranking`) where the
 * list allows it and in object form (`retrieved_context`) otherwise. Only
 * the pipeline writes it; the worker reads it back through this schema.
 */
const storedEngineOutputSchema = z.union([
  engineOutputSchema.omit({ retrieved_context: true }).extend({ ranking: compactRankingSchema }).strict(),
  engineOutputSchema.strict(),
]);

export const storedCaseSchema = evalCaseSchema.extend({ engines: z.record(z.string().min(1), storedEngineOutputSchema) });
export type StoredCase = z.infer<typeof storedCaseSchema>;

/**
 * Chunks a case may hold and still be tried as an inline message: past this
 * its lists alone are near the message limit, and serialising the case in
 * full only to find it too large would double ingest's work on a sweep.
 */
export const INLINE_CHUNK_LIMIT = 2_000;

/** The stored form of a case, as JSON text. */
export function storedCaseText(evalCase: EvalCase): string {
  const engines: Record<string, unknown> = {};
  for (const [engine, output] of Object.entries(evalCase.engines)) {
    const ranking = compactRanking(output.retrieved_context);
    if (ranking === undefined) {
      engines[engine] = output;
      continue;
    }
    const { retrieved_context: _list, ...rest } = output;
    engines[engine] = { ...rest, ranking };
  }
  return JSON.stringify({ ...evalCase, engines });
}

/** A stored case read back (parsed JSON) as the case it was. */
export function parseStoredCase(value: unknown): EvalCase {
  return expandStoredCase(storedCaseSchema.parse(value));
}

/** A stored case as the case it was: each compact list back in object form. */
export function expandStoredCase(stored: StoredCase): EvalCase {
  const engines: Record<string, EngineOutput> = {};
  for (const [engine, output] of Object.entries(stored.engines)) {
    if (!('ranking' in output)) {
      engines[engine] = output;
      continue;
    }
    const { ranking, ...rest } = output;
    engines[engine] = { ...rest, retrieved_context: expandRanking(ranking) };
  }
  return { ...stored, engines };
}
