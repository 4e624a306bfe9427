import type { ObjectStore } from '../ports/object-store.js';
import { sendAll, type WorkQueue } from '../ports/work-queue.js';
import { buildReport, reportJson } from '../report/aggregate.js';
import { caseLines, casesJsonl } from '../report/cases-jsonl.js';
import { renderHtml } from '../report/html.js';
import { renderMarkdown } from '../report/markdown.js';
import type { CheckMessage } from '../schema/pipeline-messages.js';
import { attemptUsageSchema, caseFailureSchema, caseResultSchema, type CaseResult, type Manifest } from '../schema/run-records.js';
import type { Report } from '../schema/report.js';
import { compareWithBaseline, comparisonTarget, type QueryDelta } from './baselines.js';
import type { RunConfig } from './run-config.js';
import { runCompletion, type RunCompletion } from './run-completion.js';
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
  const completion = await runCompletion(store, message.run_id);
  const { manifest, caseIds } = completion;
  const pastDeadline = dependencies.now().getTime() >= completion.deadline.getTime();
  if (completion.finished < caseIds.length && !pastDeadline) {
    const next: CheckMessage = { kind: 'check', run_id: manifest.run_id, attempt: message.attempt + 1 };
    const delaySeconds = nextCheckDelay((manifest.config as unknown as Partial<RunConfig>).run?.check_delay_seconds ?? 1, message.attempt);
    await sendAll(dependencies.control, [{ id: 'check', body: JSON.stringify(next), delaySeconds }]);
    return { kind: 'waiting', runId: manifest.run_id, finished: completion.finished, total: caseIds.length };
  }
  return reportRun(store, completion);
}

/** Aggregates a run's records and writes its report files; the run is complete or past its deadline. */
export async function reportRun(store: ObjectStore, completion: RunCompletion): Promise<Extract<ReduceOutcome, { kind: 'reported' }>> {
  const { manifest, caseIds } = completion;
  const results = await readAll(store, completion.resultKeys, (json) => caseResultSchema.parse(json));
  const failures = await readAll(store, completion.failureKeys, (json) => caseFailureSchema.parse(json));
  const attemptUsage = await readAll(store, await keysUnder(store, runKeys.attemptUsagePrefix(manifest.run_id)), (json) => attemptUsageSchema.parse(json));
  const plain = buildReport({ manifest, results, failures, caseIds, attemptUsage });
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

