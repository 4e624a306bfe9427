import type { MetricValue } from '../schema/metric-value.js';
import { compareText } from '../report/ordering.js';
import type { CaseLine } from '../schema/report.js';
import { comparableValue } from './compared-metrics.js';

/** One run's metrics, engine -> request_id -> metric -> value. */
export type CaseIndex = ReadonlyMap<string, ReadonlyMap<string, Readonly<Record<string, MetricValue>>>>;

/** The values of one metric on the cases both runs have, in request_id order: a[i] and b[i] are one case. */
export interface PairedValues {
  requestIds: string[];
  a: number[];
  b: number[];
}

/**
 * Indexes `cases.jsonl` lines by engine and request_id. A run has one line
 * per (engine, request_id); a second one is a bug of the caller (read files
 * through `parseCasesJsonl`, which reports it as an input error) and throws.
 */
export function indexCases(lines: readonly CaseLine[]): CaseIndex {
  const index = new Map<string, Map<string, Readonly<Record<string, MetricValue>>>>();
  for (const line of lines) {
    const byRequest = index.get(line.engine) ?? new Map<string, Readonly<Record<string, MetricValue>>>();
    if (byRequest.has(line.request_id)) {
      throw new RangeError(
        `Expected one case line per engine and request_id, got two for engine "${line.engine}" and request_id "${line.request_id}"`,
      );
    }
    byRequest.set(line.request_id, line.metrics);
    index.set(line.engine, byRequest);
  }
  return index;
}

/**
 * The pairs of one engine and metric: the cases (matched by request_id, the
 * id a dataset gives a request, stable across runs) where both runs have a
 * comparable value (see `comparableValue`). Cases in one run only, or
 * without the metric in either, are left out. Sorted by request_id so that
 * the order of the files never changes a result.
 */
export function pairedValues(a: CaseIndex, b: CaseIndex, engine: string, metric: string): PairedValues {
  const pairs: PairedValues = { requestIds: [], a: [], b: [] };
  const casesOfA = a.get(engine);
  const casesOfB = b.get(engine);
  if (casesOfA === undefined || casesOfB === undefined) return pairs;
  const requestIds = [...casesOfA.keys()].filter((requestId) => casesOfB.has(requestId)).sort(compareText);
  for (const requestId of requestIds) {
    const valueOfA = comparableValue(metric, metricOf(casesOfA.get(requestId), metric));
    const valueOfB = comparableValue(metric, metricOf(casesOfB.get(requestId), metric));
    if (valueOfA === undefined || valueOfB === undefined) continue;
    pairs.requestIds.push(requestId);
    pairs.a.push(valueOfA);
    pairs.b.push(valueOfB);
  }
  return pairs;
}

/** A metric of a case, own keys only (a metric named `constructor` is an ordinary name). */
function metricOf(metrics: Readonly<Record<string, MetricValue>> | undefined, metric: string): MetricValue | undefined {
  return metrics !== undefined && Object.hasOwn(metrics, metric) ? metrics[metric] : undefined;
}
