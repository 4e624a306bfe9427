import { createReadStream } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { z } from 'zod';
import type { MetricComparison } from '../schema/report.js';
import { compareMetric, DEFAULT_COMPARE_OPTIONS, regressions } from './compare-runs.js';
import type { PValueAdjustmentMethod } from '../schema/p-value-adjustment.js';
import { adjustedComparison } from './adjusted-comparison.js';
import { comparableValue } from './compared-metrics.js';
import { parseReportJson } from './run-files.js';
import type { ObjectStore } from '../ports/object-store.js';
import { comparableColumnValue } from '../report/metric-columns.js';
import { compareText, sortedRecord } from '../report/ordering.js';
import type { Report } from '../schema/report.js';
import { parseJsonWith } from '../schema/parse-json-with.js';
import type { BaselineComparison, QueryDelta } from './baselines.js';
import { headlineMetrics } from '../report/key-metrics.js';
import { REDUCE_RANGE_SIZE, type RangePartial } from '../report/range-partial.js';
import { runKeys } from '../run/run-identity.js';
import { withScratchFolder } from '../run/scratch-folder.js';

/** What a comparison reads of a baseline's line: the pair's keys and the metrics. */
const baselineLineSchema = z.object({ request_id: z.string(), engine: z.string(), metrics: z.record(z.string(), z.unknown()) });

/** How many of the largest drops and gains per metric the page's per-query deltas keep. */
const DELTAS_KEPT = 50;

/**
 * The comparison of a large run with its baseline from the run's columns, as
 * compareWithBaseline (baselines.ts) makes it from whole case lines: the same
 * headline metrics, cases paired by request id, the same statistics
 * (compareMetric; above EXACT_COMPARISON_LIMIT pairs their large-sample
 * limits). What differs is the memory: the baseline's cases.jsonl is streamed
 * from a local copy into one Float64Array per engine and metric, indexed by
 * this run's case order, and the pairs are taken in that order (case id, not
 * request id: sums may differ from `assay compare`'s in the last bits).
 * A baseline line of a request this run does not have pairs with nothing and
 * is skipped; a line that does not parse, or a second line of one engine and
 * request, gives no comparison, as a bad file does for compareWithBaseline.
 * The per-query deltas are the largest drops and gains of each metric only.
 * The p-values are adjusted across every engine × metric as compareRuns
 * adjusts them (adjusted-comparison.ts).
 */
export async function compareColumnsWithBaseline(
  store: ObjectStore,
  current: { report: Report; partials: readonly RangePartial[]; sortedCaseIds: readonly string[] },
  target: { runId: string; kind: 'baseline' | 'previous' } | undefined,
  options: { readonly adjustment?: PValueAdjustmentMethod } = {},
): Promise<BaselineComparison | undefined> {
  if (target === undefined) return undefined;
  const reportBytes = await store.get(runKeys.report(current.report.suite, target.runId, 'report.json'));
  const baselineReport = reportBytes === undefined ? undefined : parseReportJson(new TextDecoder().decode(reportBytes));
  if (baselineReport?.ok !== true) return undefined;
  const metrics = headlineMetrics(current.report);
  const caseCount = current.partials.reduce((total, partial) => total + partial.columns.size, 0);
  const requestIndex = new Map<string, number>();
  for (const partial of current.partials) {
    for (const [slot, requestId] of partial.requestIds.entries())
      if (requestId !== '') requestIndex.set(requestId, partial.range * REDUCE_RANGE_SIZE + slot);
  }
  const baseline = await withScratchFolder('assay-baseline-', async (folder) => {
    const path = join(folder, 'cases.jsonl');
    if (!(await store.download(runKeys.report(current.report.suite, target.runId, 'cases.jsonl'), path))) return undefined;
    return baselineColumns(path, metrics, requestIndex, caseCount);
  });
  if (baseline === undefined) return undefined;
  const currentEngines = new Set(current.partials.flatMap((partial) => [...partial.columns.engines.keys()]));
  const engines = [...baseline.keys()].filter((engine) => currentEngines.has(engine)).sort(compareText);
  const compared: [string, Record<string, MetricComparison>][] = [];
  const perQuery: QueryDelta[] = [];
  for (const engine of engines) {
    const byMetric: [string, MetricComparison][] = [];
    for (const metric of metrics) {
      const before = baseline.get(engine)?.get(metric);
      if (before === undefined) continue;
      const a: number[] = [];
      const b: number[] = [];
      const indices: number[] = [];
      for (const partial of current.partials) {
        const column = partial.columns.engines.get(engine)?.get(metric);
        if (column === undefined) continue;
        for (let slot = 0; slot < partial.columns.size; slot++) {
          const index = partial.range * REDUCE_RANGE_SIZE + slot;
          const valueOfA = before[index] as number;
          const valueOfB = comparableColumnValue(column, slot, metric);
          if (Number.isNaN(valueOfA) || valueOfB === undefined) continue;
          a.push(valueOfA);
          b.push(valueOfB);
          indices.push(index);
        }
      }
      if (a.length === 0) continue;
      byMetric.push([metric, compareMetric(a, b, DEFAULT_COMPARE_OPTIONS)]);
      perQuery.push(
        ...largestChanges(a, b, indices).map(({ index, ...delta }) => ({
          case_id: current.sortedCaseIds[index] as string,
          engine,
          metric,
          ...delta,
        })),
      );
    }
    if (byMetric.length > 0) compared.push([engine, sortedRecord(byMetric)]);
  }
  const comparison = adjustedComparison(sortedRecord(compared), {
    method: options.adjustment ?? DEFAULT_COMPARE_OPTIONS.adjustment,
    alpha: DEFAULT_COMPARE_OPTIONS.alpha,
  });
  return {
    comparison: {
      baseline_run_id: target.runId,
      baseline_kind: target.kind,
      adjustment: comparison.adjustment,
      regressions: regressions(comparison),
      engines: comparison.engines,
    },
    perQuery,
    baselineEngines: Object.keys(baselineReport.value.engines),
  };
}

/** engine -> metric -> the baseline's comparable values by this run's case index (NaN where none); undefined for a bad file. */
async function baselineColumns(
  path: string,
  metrics: readonly string[],
  requestIndex: ReadonlyMap<string, number>,
  caseCount: number,
): Promise<Map<string, Map<string, Float64Array>> | undefined> {
  const columns = new Map<string, Map<string, Float64Array>>();
  const seen = new Map<string, Uint8Array>();
  for await (const text of createInterface({ input: createReadStream(path), crlfDelay: Number.POSITIVE_INFINITY })) {
    if (text.trim() === '') continue;
    const parsed = parseJsonWith(baselineLineSchema, text);
    if (!parsed.ok) return undefined;
    const { engine, request_id: requestId, metrics: values } = parsed.value;
    const byMetric = columns.get(engine) ?? new Map<string, Float64Array>();
    columns.set(engine, byMetric);
    const index = requestIndex.get(requestId);
    if (index === undefined) continue;
    const seenOfEngine = seen.get(engine) ?? new Uint8Array(caseCount);
    seen.set(engine, seenOfEngine);
    if (seenOfEngine[index] === 1) return undefined;
    seenOfEngine[index] = 1;
    for (const metric of metrics) {
      const value = comparableValue(metric, Object.hasOwn(values, metric) ? (values[metric] as never) : undefined);
      if (value === undefined) continue;
      let column = byMetric.get(metric);
      if (column === undefined) {
        column = new Float64Array(caseCount).fill(Number.NaN);
        byMetric.set(metric, column);
      }
      column[index] = value;
    }
  }
  return columns;
}

/** The DELTAS_KEPT largest drops and gains among the pairs that changed, ties by case order. */
function largestChanges(
  a: readonly number[],
  b: readonly number[],
  indices: readonly number[],
): { index: number; a: number; b: number; delta: number }[] {
  const changed: number[] = [];
  for (let pair = 0; pair < a.length; pair++) if (a[pair] !== b[pair]) changed.push(pair);
  const deltaOf = (pair: number): number => (b[pair] as number) - (a[pair] as number);
  changed.sort((left, right) => deltaOf(left) - deltaOf(right) || left - right);
  const kept = changed.length <= 2 * DELTAS_KEPT ? changed : [...changed.slice(0, DELTAS_KEPT), ...changed.slice(-DELTAS_KEPT)];
  return kept.map((pair) => ({ index: indices[pair] as number, a: a[pair] as number, b: b[pair] as number, delta: deltaOf(pair) }));
}
