import { expandRanking } from '../schema/compact-ranking.js';
import type { CaseLine } from '../schema/report.js';
import type { CaseResult } from '../schema/run-records.js';
import { compareText, sortedKeys, sortedRecord } from './ordering.js';

/**
 * `cases.jsonl`: one line per (case, engine) with every metric of that engine
 * on that case, ratings, rationales, error messages and per-chunk lists
 * included, and the engine's ranked list (doc_uri, rank, score) and response
 * where the result kept them, and `judging_skipped` on the cases whose LLM
 * judges were skipped at the run's cost ceiling. Lines are sorted by case id, then engine; metric keys are sorted;
 * the text ends with a newline unless there is no line at all.
 */
export function casesJsonl(results: readonly CaseResult[]): string {
  return caseLines(results)
    .map((line) => `${JSON.stringify(line)}\n`)
    .join('');
}

/** The lines of `cases.jsonl` as values, in file order. */
export function caseLines(results: readonly CaseResult[]): CaseLine[] {
  const sorted = [...results].sort((left, right) => compareText(left.case_id, right.case_id));
  return sorted.flatMap((result) =>
    sortedKeys(result.engines).map((engine) => {
      const output = result.outputs !== undefined && Object.hasOwn(result.outputs, engine) ? result.outputs[engine] : undefined;
      return {
        case_id: result.case_id,
        request_id: result.request_id,
        engine,
        metrics: sortedRecord(Object.entries(result.engines[engine] ?? {})),
        ...(output === undefined ? {} : { retrieved: 'ranking' in output ? expandRanking(output.ranking) : output.retrieved, ...(output.response === undefined ? {} : { response: output.response }) }),
        ...(result.judging_skipped === undefined ? {} : { judging_skipped: result.judging_skipped }),
      };
    }),
  );
}
