import type { FailedCase } from '../schema/report.js';
import type { CaseResult } from '../schema/run-records.js';
import { compareText } from './ordering.js';

/**
 * A judgment that ended in error, as a case's metrics hold it: the judge's
 * `<scope>/<source>/<judge>/error_message` is a text where its rating would
 * be (shared/scoring/: one judge's, a chunk judge's when a chunk failed, a
 * repeated judge's when a sample failed, an ensemble's when a member failed).
 * The judge is the third segment, its id as the run names it (a model variant
 * `<id>@<model>` included). The per-chunk `/error_messages` list is not the
 * signal: its judge's `/error_message` already says that a chunk failed. An
 * engine's own failure (`engine/error_message`) is no judgment.
 */
const JUDGE_ERROR = /^(?:retrieval|response)\/(?:llm_judged|lexical)\/([^/]+)\/error_message$/;

/** The judge whose judgment a metric's error message belongs to, or undefined when the metric is no judge's error message. */
export function judgeOfErrorMetric(name: string): string | undefined {
  return JUDGE_ERROR.exec(name)?.[1];
}

/**
 * The `failed_cases` entries of one evaluated case: one per judge with some
 * judgment in error, naming the engines (sorted) whose metrics of that judge
 * hold an error and the first of those engines' messages. Sorted by judge id.
 */
export function judgeFailuresOf(result: Pick<CaseResult, 'case_id' | 'engines'>): FailedCase[] {
  const byJudge = new Map<string, { error: string; engines: string[] }>();
  for (const engine of Object.keys(result.engines).sort(compareText)) {
    for (const [name, value] of Object.entries(result.engines[engine] ?? {})) {
      if (typeof value !== 'string') continue;
      const judge = judgeOfErrorMetric(name);
      if (judge === undefined) continue;
      const failure = byJudge.get(judge);
      if (failure === undefined) byJudge.set(judge, { error: value, engines: [engine] });
      else failure.engines.push(engine);
    }
  }
  return [...byJudge]
    .sort(([left], [right]) => compareText(left, right))
    .map(([judge, failure]) => ({ case_id: result.case_id, error: failure.error, judge, engines: failure.engines }));
}

/**
 * The order of `failed_cases`: by case id, a whole failed case before the
 * judge failures of a case (a case has either, never both), then by judge id.
 * Every entry has its own place, so both report builders sort to one order.
 */
export function compareFailedCases(left: FailedCase, right: FailedCase): number {
  const byCase = compareText(left.case_id, right.case_id);
  if (byCase !== 0) return byCase;
  if (left.judge === undefined) return right.judge === undefined ? 0 : -1;
  if (right.judge === undefined) return 1;
  return compareText(left.judge, right.judge);
}

/** How many cases the judge failures name: `cases.judge_failed`. */
export function judgeFailedCaseCount(entries: readonly FailedCase[]): number {
  return new Set(entries.flatMap((entry) => (entry.judge === undefined ? [] : [entry.case_id]))).size;
}
