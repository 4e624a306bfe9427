import type { FailedCase } from '../schema/report.js';
import type { CaseFailure, CaseResult, JudgeUsageRecord, Manifest } from '../schema/run-records.js';
import { compareText } from './ordering.js';

/** How each case of a run ended, every list sorted by case id. */
export interface CaseOutcomes {
  /** Cases with a result. */
  readonly evaluated: readonly CaseResult[];
  /** Cases with a failure and no result. */
  readonly failed: readonly FailedCase[];
  /** Case ids with neither. */
  readonly missing: readonly string[];
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
 * missing, so that their sizes add up to the manifest's case count.
 *
 * A result wins over a failure of the same case: the failure recorder wrote
 * the failure, then `assay redrive` re-queued the case and it succeeded.
 *
 * Records that contradict the manifest (a case id listed twice, a result of
 * an unknown case or of another run, a case-id list whose length is not the
 * manifest's count) are bugs upstream, since every record lives under a
 * deterministic key of its run: they throw rather than skew the counts.
 */
export function caseOutcomes({ manifest, results, failures, caseIds }: CaseRecords): CaseOutcomes {
  const known = distinctIds(caseIds, 'the run\'s case ids');
  if (known.size !== manifest.cases) {
    throw new Error(`Expected ${manifest.cases} case ids (the manifest's case count), got ${known.size}`);
  }
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
  return { evaluated, failed, missing };
}

function distinctIds(ids: readonly string[], described: string): Set<string> {
  const seen = new Set<string>();
  for (const id of ids) {
    if (seen.has(id)) throw new Error(`Expected ${described} to be distinct, but "${id}" appears more than once`);
    seen.add(id);
  }
  return seen;
}

function checkRecords(
  records: readonly { run_id: string; case_id: string }[],
  described: string,
  runId: string,
  known: ReadonlySet<string>,
): void {
  distinctIds(
    records.map((record) => record.case_id),
    `the case ids of the ${described}`,
  );
  for (const record of records) {
    if (record.run_id !== runId) {
      throw new Error(`Expected ${described} of run "${runId}", but case "${record.case_id}" belongs to run "${record.run_id}"`);
    }
    if (!known.has(record.case_id)) {
      throw new Error(`Expected ${described} of the run's cases only, but "${record.case_id}" is not one of its case ids`);
    }
  }
}
