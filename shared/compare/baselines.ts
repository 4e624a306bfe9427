import type { Result } from '../schema/result.js';
import { z } from 'zod';
import { compareRuns, regressions, type RunFiles } from './compare-runs.js';
import { join } from 'node:path';
import { parseReportJson, readCaseLinesFile } from './run-files.js';
import type { ObjectStore } from '../ports/object-store.js';
import { parseJudgeTwin } from '../metrics/judge-twin-names.js';
import { headlineMetrics } from '../report/key-metrics.js';
import type { CaseLine, Report, ReportComparison } from '../schema/report.js';
import type { Manifest } from '../schema/run-records.js';
import type { PValueAdjustmentMethod } from '../schema/p-value-adjustment.js';
import { parseJsonWith } from '../schema/parse-json-with.js';
import { runKeys } from '../run/run-identity.js';
import { withScratchFolder } from '../run/scratch-folder.js';
import { previousRun, suiteRunOf } from '../run/suite-runs.js';

/**
 * Baselines: `assay baseline set RUN` stores the suite's pointer in
 * `baselines/<suite>.json`. The reducer compares each new report of the suite
 * with that run, or, without one, with the suite's previous report, using the
 * paired tests of shared/compare; the regressions it finds go into the report
 * and into the metric the regression alarm watches.
 */
const pointerSchema = z.object({ run_id: z.string(), set_at: z.string() });

export const baselineKey = (suite: string): string => `baselines/${suite}.json`;

export async function setBaseline(store: ObjectStore, suite: string, runId: string, now: Date): Promise<Result<undefined>> {
  if ((await store.get(runKeys.report(suite, runId, 'report.json'))) === undefined) {
    return { ok: false, error: `Run ${runId} has no report in suite ${suite}; run it to the end first, or check --suite` };
  }
  await store.put(baselineKey(suite), JSON.stringify({ run_id: runId, set_at: now.toISOString() }));
  return { ok: true, value: undefined };
}

const targetSchema = z.object({ target: z.object({ runId: z.string(), kind: z.enum(['baseline', 'previous']) }).nullable() });

/**
 * The run to compare a new report with: the baseline, else the previous
 * report; never the run itself. Chosen once per run and kept in
 * `runs/<run>/comparison-target.json`, so that writing the report again (once
 * latest.json points at this very run) compares with the same run.
 */
export async function comparisonTarget(
  store: ObjectStore,
  manifest: Pick<Manifest, 'suite' | 'run_id' | 'created_at'>,
): Promise<{ runId: string; kind: 'baseline' | 'previous' } | undefined> {
  const key = `runs/${manifest.run_id}/comparison-target.json`;
  const kept = await readJson(store, key, targetSchema);
  if (kept !== undefined) return kept.target ?? undefined;
  const chosen = await chooseTarget(store, manifest);
  await store.put(key, JSON.stringify({ target: chosen ?? null }), { ifNoneMatch: true });
  return (await readJson(store, key, targetSchema))?.target ?? chosen;
}

/** The baseline, else the suite's newest reported run before this one in run time (a resumed old run is not compared with a newer one). */
async function chooseTarget(
  store: ObjectStore,
  manifest: Pick<Manifest, 'suite' | 'run_id' | 'created_at'>,
): Promise<{ runId: string; kind: 'baseline' | 'previous' } | undefined> {
  const pointer = await readJson(store, baselineKey(manifest.suite), pointerSchema);
  if (pointer !== undefined && pointer.run_id !== manifest.run_id) return { runId: pointer.run_id, kind: 'baseline' };
  const previous = await previousRun(store, manifest.suite, suiteRunOf(manifest));
  return previous === undefined ? undefined : { runId: previous.run_id, kind: 'previous' };
}

/** One case's change on one headline metric, for the HTML report's per-query deltas. */
export interface QueryDelta {
  readonly case_id: string;
  readonly engine: string;
  readonly metric: string;
  readonly a: number;
  readonly b: number;
  readonly delta: number;
}

/** A report's comparison with its target, the per-case changes behind it, and the target's engines (what the comparison could not see). */
export interface BaselineComparison {
  readonly comparison: ReportComparison;
  readonly perQuery: QueryDelta[];
  readonly baselineEngines: readonly string[];
}

/**
 * The comparison of a new report with its target, or undefined when there is
 * none (or its files are gone), with the per-case changes behind it: every
 * case and headline metric whose value moved, paired by request id.
 */
export async function compareWithBaseline(
  store: ObjectStore,
  current: { report: Report; cases: readonly CaseLine[] },
  target: { runId: string; kind: 'baseline' | 'previous' } | undefined,
  options: { readonly minLabelled?: number; readonly adjustment?: PValueAdjustmentMethod } = {},
): Promise<BaselineComparison | undefined> {
  if (target === undefined) return undefined;
  const metrics = headlineMetrics(current.report);
  const baseline = await readRunFiles(store, current.report.suite, target.runId, new Set(comparisonReads(current.report)));
  if (baseline === undefined) return undefined;
  const comparison = compareRuns(baseline, current, {
    metrics,
    ...(options.minLabelled === undefined ? {} : { minLabelled: options.minLabelled }),
    ...(options.adjustment === undefined ? {} : { adjustment: options.adjustment }),
  });
  return {
    comparison: {
      baseline_run_id: target.runId,
      baseline_kind: target.kind,
      adjustment: comparison.adjustment,
      regressions: regressions(comparison),
      engines: comparison.engines,
    },
    perQuery: queryDeltas(baseline.cases, current.cases, metrics),
    baselineEngines: Object.keys(baseline.report.engines),
  };
}

function queryDeltas(baseline: readonly CaseLine[], current: readonly CaseLine[], metrics: readonly string[]): QueryDelta[] {
  const before = new Map(baseline.map((line) => [`${line.engine}\u0000${line.request_id}`, line]));
  const deltas: QueryDelta[] = [];
  for (const line of current) {
    const earlier = before.get(`${line.engine}\u0000${line.request_id}`);
    if (earlier === undefined) continue;
    for (const metric of metrics) {
      const a = numeric(earlier.metrics[metric]);
      const b = numeric(line.metrics[metric]);
      if (a !== undefined && b !== undefined && a !== b)
        deltas.push({ case_id: line.case_id, engine: line.engine, metric, a, b, delta: b - a });
    }
  }
  return deltas;
}

/** A per-case value as a number: yes/no ratings as 1/0, as the comparison reads them. */
function numeric(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (value === 'yes') return 1;
  if (value === 'no') return 0;
  return undefined;
}

/**
 * The per-case metrics a comparison with the baseline reads: the headline
 * ones, and the judges' twins of the human ones among them, which correct
 * them (shared/compare/corrected-comparison.ts): the relevance judges' values
 * of the ground-truth metrics, and the answer judges' ratings beside the
 * human verdicts. Every numeric metric has an average in the report (the
 * twins too), a yes/no rating its percentage.
 */
export function comparisonReads(report: Report): string[] {
  const headline = new Set(headlineMetrics(report));
  const twins = new Set<string>();
  for (const statistics of Object.values(report.engines)) {
    for (const statistic of Object.keys(statistics)) {
      const name = statistic.endsWith('/average')
        ? statistic.slice(0, -'/average'.length)
        : statistic.endsWith('/rating/percentage')
          ? statistic.slice(0, -'/percentage'.length)
          : undefined;
      const twin = name === undefined ? undefined : parseJudgeTwin(name);
      if (name !== undefined && twin !== undefined && headline.has(twin.human)) twins.add(name);
    }
  }
  return [...headline, ...[...twins].filter((name) => !headline.has(name)).sort()];
}

/**
 * The target's report and case lines, each line with only the compared
 * metrics: cases.jsonl is read as a stream from a local copy, so a baseline
 * of a million cases never sits in memory as text or as whole lines. Lines
 * are checked as `parseCasesJsonl` checks them; a file that fails gives no
 * comparison.
 */
async function readRunFiles(store: ObjectStore, suite: string, runId: string, metrics: ReadonlySet<string>): Promise<RunFiles | undefined> {
  const reportBytes = await store.get(runKeys.report(suite, runId, 'report.json'));
  if (reportBytes === undefined) return undefined;
  const report = parseReportJson(new TextDecoder().decode(reportBytes));
  if (!report.ok) return undefined;
  return withScratchFolder('assay-baseline-', async (folder) => {
    const path = join(folder, 'cases.jsonl');
    if (!(await store.download(runKeys.report(suite, runId, 'cases.jsonl'), path))) return undefined;
    const cases = await readCaseLinesFile(path, metrics);
    return cases.ok ? { report: report.value, cases: cases.value } : undefined;
  });
}

async function readJson<T>(store: ObjectStore, key: string, schema: z.ZodType<T>): Promise<T | undefined> {
  const bytes = await store.get(key);
  if (bytes === undefined) return undefined;
  const parsed = parseJsonWith(schema, bytes);
  return parsed.ok ? parsed.value : undefined;
}
