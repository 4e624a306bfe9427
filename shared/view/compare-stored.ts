import { compareRuns, DEFAULT_COMPARE_OPTIONS } from '../compare/compare-runs.js';
import { withRunCanaries } from '../compare/run-canaries.js';
import { withRunLeaderboards } from '../compare/run-leaderboards.js';
import { DEFAULT_LEADERBOARD_ADJUSTMENT } from '../schema/p-value-adjustment.js';
import type { RunComparison } from '../schema/compare-json.js';
import { aggregatedMetrics } from '../compare/compared-metrics.js';
import { readCaseLinesFile } from '../compare/run-files.js';
import { compareText } from '../report/ordering.js';
import { metricValues, type LinesRead } from './case-lines.js';
import { found, unreadable, type Found } from './found.js';
import type { CasesFile, StoredRun } from './view-data.js';

/**
 * Two stored runs compared as `assay compare A B --json` compares their
 * report folders: the same function with the same defaults, over the same
 * lines (each read keeping only the metrics the comparison can use, which
 * changes no pair), so the API gives the numbers the CLI prints.
 */
export async function compareStoredRuns(a: StoredRun, b: StoredRun, files: readonly [CasesFile, CasesFile]): Promise<Found<RunComparison>> {
  const metrics = new Set(aggregatedMetrics([a.report, b.report]));
  const cases = [];
  for (const [run, file] of [
    [a, files[0]],
    [b, files[1]],
  ] as const) {
    const read = await readCaseLinesFile(file.path, metrics);
    if (!read.ok)
      return unreadable(
        `cases.jsonl of run ${run.runId}${read.error.line === undefined ? '' : `, line ${read.error.line}`}: ${read.error.message}`,
      );
    cases.push(read.value);
  }
  const runA = { report: a.report, cases: cases[0] ?? [] };
  const runB = { report: b.report, cases: cases[1] ?? [] };
  const comparison = withRunCanaries(compareRuns(runA, runB), runA, runB);
  return found(
    withRunLeaderboards(comparison, runB, {
      alpha: DEFAULT_COMPARE_OPTIONS.alpha,
      minLabelled: DEFAULT_COMPARE_OPTIONS.minLabelled,
      method: DEFAULT_LEADERBOARD_ADJUSTMENT,
    }),
  );
}

/** One query's change between the runs, for one engine and metric. */
export interface QueryChange {
  readonly request_id: string;
  readonly a: number;
  readonly b: number;
  /** b - a: negative when the query lost. */
  readonly delta: number;
}

/** The per-query changes of one engine and metric, and how many of them are losses (the first ones). */
export interface QueryChanges {
  readonly changes: readonly QueryChange[];
  /** How many changes are losses (delta < 0): they come first, so the gains start at this offset. */
  readonly losses: number;
  /** Pairs whose value did not move. */
  readonly unchanged: number;
}

/**
 * Every query whose value of the metric moved between the runs, for one
 * engine, paired by request id as the comparison pairs them: the losses
 * first, the largest loss first, then the gains, the largest gain first, so
 * both ends of the change open the list whichever way the mean moved (a
 * regression check reads the losses even of a run that gained); equal
 * changes by request id.
 */
export async function queryChanges(
  a: StoredRun,
  b: StoredRun,
  files: readonly [CasesFile, CasesFile],
  engine: string,
  metric: string,
): Promise<Found<QueryChanges>> {
  const values: Map<string, number>[] = [];
  for (const [run, file] of [
    [a, files[0]],
    [b, files[1]],
  ] as const) {
    const read: LinesRead<Map<string, number>> = await metricValues(file.path, engine, metric);
    if (!read.ok) return unreadable(`cases.jsonl of run ${run.runId}, line ${read.error.line}: ${read.error.message}`);
    values.push(read.value);
  }
  const [before = new Map<string, number>(), after = new Map<string, number>()] = values;
  const changes: QueryChange[] = [];
  let unchanged = 0;
  for (const [requestId, valueOfA] of before) {
    const valueOfB = after.get(requestId);
    if (valueOfB === undefined) continue;
    if (valueOfB === valueOfA) unchanged++;
    else changes.push({ request_id: requestId, a: valueOfA, b: valueOfB, delta: valueOfB - valueOfA });
  }
  changes.sort(
    (left, right) =>
      Number(left.delta > 0) - Number(right.delta > 0) ||
      Math.abs(right.delta) - Math.abs(left.delta) ||
      compareText(left.request_id, right.request_id),
  );
  return found({ changes, losses: changes.filter((change) => change.delta < 0).length, unchanged });
}
