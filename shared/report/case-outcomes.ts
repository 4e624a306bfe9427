import type { FailedCase } from '../schema/report.js';
import type { CaseFailure, CaseResult, JudgeUsageRecord, Manifest } from '../schema/run-records.js';
import { judgeFailuresOf } from './judge-failures.js';
import { compareText } from './ordering.js';

/** How each case of a run ended, every list sorted by case id. */
export interface CaseOutcomes {
  /** The run's distinct case ids: evaluated + failed + missing. */
  readonly total: number;
  /** Cases with a result. */
  readonly evaluated: readonly CaseResult[];
  /** Cases with a failure and no result. */
  readonly failed: readonly FailedCase[];
  /** Case ids with neither. */
  readonly missing: readonly string[];
  /** The evaluated cases' judgments that ended in error: one entry per case and judge, by case id then judge id (judge-failures.ts). */
  readonly judgeFailures: readonly FailedCase[];
}

export interface CaseRecords {
  readonly manifest: Manifest;
  readonly results: readonly CaseResult[];
  readonly failures: readonly CaseFailure[];
  readonly caseIds: readonly string[];
  /** Judge usage of deliveries that ended in a retry: calls no result holds, summed into the report's judges. */
  readonly attemptUsage?: readonly Readonly<Record<string, JudgeUsageRecord>>[];
}

/**
 * Sorts every case of the run into exactly one of evaluated, failed and
 * missing, so that their sizes add up to the manifest's case count, and
 * lists the evaluated cases' judgments that ended in error.
 *
 * A result wins over a failure of the same case: the failure recorder wrote
 * the failure, then `assay redrive` re-queued the case and it succeeded.
 *
 * A case id listed twice (two requests an older ingest let share one case
 * id) is one case: its records cannot tell the two apart, so it counts once,
 * and of two records of one case the first is kept. A duplicate never stops
 * the report.
 *
 * Records that contradict the manifest (a result of an unknown case or of
 * another run, a case-id list whose length is not the manifest's count) are
 * bugs upstream, since every record lives under a deterministic key of its
 * run: they throw rather than skew the counts.
 */
export function caseOutcomes({ manifest, results: allResults, failures: allFailures, caseIds }: CaseRecords): CaseOutcomes {
  if (caseIds.length !== manifest.cases) {
    throw new Error(`Expected ${manifest.cases} case ids (the manifest's case count), got ${caseIds.length}`);
  }
  const known = new Set(caseIds);
  const results = firstOfEachCase(allResults);
  const failures = firstOfEachCase(allFailures);
  checkRecords(results, 'results', manifest.run_id, known);
  checkRecords(failures, 'failures', manifest.run_id, known);

  const evaluatedIds = new Set(results.map((result) => result.case_id));
  const failed = failures
    .filter((failure) => !evaluatedIds.has(failure.case_id))
    .map((failure) => ({ case_id: failure.case_id, error: failure.error }))
    .sort((left, right) => compareText(left.case_id, right.case_id));
  const failedIds = new Set(failed.map((failure) => failure.case_id));
  const missing = [...known].filter((id) => !evaluatedIds.has(id) && !failedIds.has(id)).sort(compareText);
  const evaluated = [...results].sort((left, right) => compareText(left.case_id, right.case_id));
  const judgeFailures = evaluated.flatMap(judgeFailuresOf);
  return { total: known.size, evaluated, failed, missing, judgeFailures };
}

function firstOfEachCase<Entry extends { case_id: string }>(records: readonly Entry[]): Entry[] {
  const seen = new Set<string>();
  return records.filter((record) => {
    if (seen.has(record.case_id)) return false;
    seen.add(record.case_id);
    return true;
  });
}

function checkRecords(
  records: readonly { run_id: string; case_id: string }[],
  described: string,
  runId: string,
  known: ReadonlySet<string>,
): void {
  for (const record of records) {
    if (record.run_id !== runId) {
      throw new Error(`Expected ${described} of run "${runId}", but case "${record.case_id}" belongs to run "${record.run_id}"`);
    }
    if (!known.has(record.case_id)) {
      throw new Error(`Expected ${described} of the run's cases only, but "${record.case_id}" is not one of its case ids`);
    }
  }
}
