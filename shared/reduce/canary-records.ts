import pLimit from 'p-limit';
import { isCanaryCaseId } from '../run/canary-keys.js';
import { canarySection } from '../canaries/canary-section.js';
import type { ObjectStore } from '../ports/object-store.js';
import { caseLines } from '../report/cases-jsonl.js';
import { addUsagesByJudge } from '../scoring/judge-usage-tally.js';
import type { CanaryReport } from '../schema/canary-report.js';
import { parseJsonWith, readJsonWith } from '../schema/parse-json-with.js';
import { reportSchema, type ReportComparison } from '../schema/report.js';
import { caseIdsSchema, caseResultSchema, type CaseResult, type JudgeUsageRecord, type Manifest } from '../schema/run-records.js';
import { runKeys } from '../run/run-identity.js';
import { runConfigOf } from '../run/stored-config.js';
import { READ_CONCURRENCY } from './aggregate-range.js';

/**
 * The canary's part of a report (shared/canaries/canary-section.ts), from the
 * run's canary records: the canary cases' results (a case without one failed
 * when it has a failure record, else is missing), their judge usage with
 * that of their deliveries that ended in a retry, and the canary of the run
 * the report is compared with, read from its report.json. Undefined for a
 * run without a canary set.
 */
export async function canaryOfRun(
  store: ObjectStore,
  manifest: Manifest,
  comparedWith: string | undefined,
  regressions: ReportComparison['regressions'],
  canaryAttemptUsage: readonly Readonly<Record<string, JudgeUsageRecord>>[],
): Promise<CanaryReport | undefined> {
  const { canary } = manifest;
  const settings = runConfigOf(manifest).canaries;
  if (canary === undefined || settings === undefined) return undefined;
  const idsKey = runKeys.canaryCaseIds(manifest.run_id);
  const caseIds = [...new Set(readJsonWith(caseIdsSchema, (await store.get(idsKey)) ?? new TextEncoder().encode('[]'), idsKey))];
  const limit = pLimit(READ_CONCURRENCY);
  const records = await Promise.all(caseIds.map((caseId) => limit(() => recordOf(store, manifest.run_id, caseId))));
  const results = records.flatMap((record) => (record.kind === 'result' ? [record.result] : []));
  const failed = records.filter((record) => record.kind === 'failed').length;
  return canarySection({
    canary,
    alpha: settings.alpha,
    lines: caseLines(results),
    usage: addUsagesByJudge([...results.map((result) => result.judge_usage), ...canaryAttemptUsage]),
    cases: { total: caseIds.length, evaluated: results.length, failed, missing: caseIds.length - results.length - failed },
    comparedWith:
      comparedWith === undefined ? undefined : { runId: comparedWith, canaries: await canaryOfReport(store, manifest.suite, comparedWith) },
    regressions,
  });
}

type CanaryRecord = { kind: 'result'; result: CaseResult } | { kind: 'failed' } | { kind: 'missing' };

async function recordOf(store: ObjectStore, runId: string, caseId: string): Promise<CanaryRecord> {
  const key = runKeys.result(runId, caseId);
  const bytes = await store.get(key);
  if (bytes !== undefined) return { kind: 'result', result: readJsonWith(caseResultSchema, bytes, key) };
  return (await store.get(runKeys.failure(runId, caseId))) === undefined ? { kind: 'missing' } : { kind: 'failed' };
}

/** The canary of a reported run, from its report.json; undefined when it has none, or its report is gone or unreadable. */
async function canaryOfReport(store: ObjectStore, suite: string, runId: string): Promise<CanaryReport | undefined> {
  const bytes = await store.get(runKeys.report(suite, runId, 'report.json'));
  if (bytes === undefined) return undefined;
  const parsed = parseJsonWith(reportSchema, bytes);
  return parsed.ok ? parsed.value.canaries : undefined;
}

/** The judge usage of a canary case's deliveries that ended in a retry: its key is `runs/<run>/attempt-usage/<case>/<delivery>.json`. */
export function isCanaryAttemptKey(runId: string, key: string): boolean {
  const caseId = key.slice(runKeys.attemptUsagePrefix(runId).length).split('/')[0] ?? '';
  return isCanaryCaseId(caseId);
}
