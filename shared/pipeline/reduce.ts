import type { ObjectStore } from '../ports/object-store.js';
import { sendAll, type WorkQueue } from '../ports/work-queue.js';
import { buildReport, reportJson } from '../report/aggregate.js';
import { caseLines, casesJsonl } from '../report/cases-jsonl.js';
import { renderHtml } from '../report/html.js';
import { renderMarkdown } from '../report/markdown.js';
import type { CheckMessage } from '../schema/pipeline-messages.js';
import { caseFailureSchema, caseIdsSchema, caseResultSchema, type CaseResult, type Manifest } from '../schema/run-records.js';
import type { Report } from '../schema/report.js';
import { compareWithBaseline, comparisonTarget, type QueryDelta } from './baselines.js';
import { readManifest } from './evaluate-case.js';
import type { RunConfig } from './run-config.js';
import { runKeys } from './run-identity.js';

export interface ReducerDependencies {
  readonly store: ObjectStore;
  readonly control: WorkQueue;
  readonly now: () => Date;
}

export type ReduceOutcome =
  | { kind: 'waiting'; runId: string; finished: number; total: number }
  | { kind: 'reported'; runId: string; report: Report; keys: readonly string[] };

export const REPORT_FILES = ['report.json', 'report.md', 'report.html', 'cases.jsonl'] as const;

/**
 * The reducer's work on one check message: count the run's results and
 * failures against its case ids. While cases are outstanding and the deadline
 * has not passed, it schedules the next check (a delayed message on the
 * control queue). Once every case has a result or a failure, or at the
 * deadline (the rest are then reported as missing), it aggregates, writes
 * `reports/<suite>/<run>/report.{json,md}` and `cases.jsonl`, and points
 * `reports/<suite>/latest.json` at them. The report compares the run with the
 * suite's baseline or previous run (baselines.ts). It is a pure function of
 * the stored records, so writing it twice writes the same bytes.
 */
export async function checkRun(dependencies: ReducerDependencies, message: CheckMessage): Promise<ReduceOutcome> {
  const { store } = dependencies;
  const manifest = await readManifest(store, message.run_id);
  const caseIds = caseIdsSchema.parse(JSON.parse(new TextDecoder().decode((await store.get(runKeys.caseIds(manifest.run_id))) ?? new Uint8Array())));
  const resultKeys = await keysUnder(store, runKeys.resultsPrefix(manifest.run_id));
  const failureKeys = await keysUnder(store, runKeys.failuresPrefix(manifest.run_id));
  // A case id listed twice is one case (see caseOutcomes): it is waited for once.
  const distinctIds = [...new Set(caseIds)];
  const finished = distinctIds.filter(
    (caseId) => resultKeys.has(runKeys.result(manifest.run_id, caseId)) || failureKeys.has(runKeys.failure(manifest.run_id, caseId)),
  ).length;
  const pastDeadline = dependencies.now().getTime() >= Date.parse(manifest.deadline);
  if (finished < distinctIds.length && !pastDeadline) {
    const next: CheckMessage = { kind: 'check', run_id: manifest.run_id, attempt: message.attempt + 1 };
    const delaySeconds = nextCheckDelay((manifest.config as unknown as Partial<RunConfig>).run?.check_delay_seconds ?? 1, message.attempt);
    await sendAll(dependencies.control, [{ id: 'check', body: JSON.stringify(next), delaySeconds }]);
    return { kind: 'waiting', runId: manifest.run_id, finished, total: distinctIds.length };
  }
  const results = await readAll(store, resultKeys, (json) => caseResultSchema.parse(json));
  const failures = await readAll(store, failureKeys, (json) => caseFailureSchema.parse(json));
  const plain = buildReport({ manifest, results, failures, caseIds });
  const target = await comparisonTarget(store, manifest.suite, manifest.run_id);
  const compared = await compareWithBaseline(store, { report: plain, cases: caseLines(results) }, target);
  const report: Report = compared === undefined ? plain : { ...plain, comparison: compared.comparison };
  const keys = await writeReport(store, manifest, report, results, compared?.perQuery ?? []);
  return { kind: 'reported', runId: manifest.run_id, report, keys };
}

/**
 * Checks back off: 1.5 times longer each time, at most a minute apart, so a
 * short run reports within seconds of its last case and a long one costs a
 * handful of checks, not thousands.
 */
export function nextCheckDelay(baseSeconds: number, attempt: number): number {
  return Math.min(60, Math.max(baseSeconds, Math.round(baseSeconds * 1.5 ** attempt)));
}

async function writeReport(
  store: ObjectStore,
  manifest: Manifest,
  report: Report,
  results: readonly CaseResult[],
  perQuery: readonly QueryDelta[],
): Promise<string[]> {
  const comparison = report.comparison === undefined ? undefined : { baseline_run_id: report.comparison.baseline_run_id, engines: report.comparison.engines, per_query: [...perQuery] };
  const files: Record<(typeof REPORT_FILES)[number], string> = {
    'report.json': reportJson(report),
    'report.md': renderMarkdown(report),
    'report.html': renderHtml(report, caseLines(results), comparison === undefined ? {} : { comparison }),
    'cases.jsonl': casesJsonl(results),
  };
  const keys: string[] = [];
  for (const [name, body] of Object.entries(files)) {
    const key = runKeys.report(manifest.suite, manifest.run_id, name);
    await store.put(key, body);
    keys.push(key);
  }
  await store.put(
    runKeys.latest(manifest.suite),
    JSON.stringify({ run_id: manifest.run_id, created_at: manifest.created_at, report: runKeys.report(manifest.suite, manifest.run_id, 'report.json') }),
  );
  return keys;
}

async function keysUnder(store: ObjectStore, prefix: string): Promise<Set<string>> {
  const keys = new Set<string>();
  for await (const key of store.list(prefix)) keys.add(key);
  return keys;
}

async function readAll<T>(store: ObjectStore, keys: Iterable<string>, parse: (json: unknown) => T): Promise<T[]> {
  const records: T[] = [];
  for (const key of [...keys].sort()) {
    const bytes = await store.get(key);
    if (bytes !== undefined) records.push(parse(JSON.parse(new TextDecoder().decode(bytes))));
  }
  return records;
}

