import type { CaseFailure, CaseResult, JudgeUsageRecord, Manifest } from '../../../shared/schema/run-records.js';

export const RUN_ID = 'run-1';

/** A per-case metric value as a case result holds it. */
export type Value = CaseResult['engines'][string][string];

/** A manifest of `caseIds.length` cases, overridable field by field. */
export function manifest(caseIds: readonly string[], overrides: Partial<Manifest> = {}): Manifest {
  return {
    run_id: RUN_ID,
    suite: 'faq',
    dataset: { key: 'datasets/faq/cases.jsonl', etag: '"etag-1"' },
    trigger: 'upload',
    config: {},
    config_hash: 'hash-1',
    created_at: '2025-01-02T03:04:05.000Z',
    deadline: '2025-01-02T04:04:05.000Z',
    cases: caseIds.length,
    engines: ['bm25', 'dense'],
    input_errors: 0,
    judge: 'lexical judge (non-LLM approximations)',
    ...overrides,
  };
}

/** A case result with the given metrics per engine. */
export function result(
  caseId: string,
  engines: Record<string, Record<string, Value>>,
  judgeUsage: Record<string, JudgeUsageRecord> = {},
): CaseResult {
  return {
    run_id: RUN_ID,
    case_id: caseId,
    request_id: `request-${caseId}`,
    request: `question of ${caseId}`,
    engines,
    skipped: [],
    judge_usage: judgeUsage,
  };
}

export function failure(caseId: string, error = 'judge timed out'): CaseFailure {
  const message = JSON.stringify({ kind: 'case', run_id: RUN_ID, case_id: caseId });
  return { run_id: RUN_ID, case_id: caseId, error, receive_count: 3, message };
}

export function usage(overrides: Partial<JudgeUsageRecord> = {}): JudgeUsageRecord {
  return { calls: 0, cache_hits: 0, retries: 0, errors: 0, input_tokens: 0, output_tokens: 0, ...overrides };
}
