import type { MetricValue } from '../schema/metric-value.js';

const RATING = '/rating';
const ERROR_MESSAGE = '/error_message';

/**
 * One metric of one engine over a run of consecutive cases (a segment, in
 * case-id order): everything the report's statistics need and nothing more,
 * so the reducer never holds the cases themselves.
 * - `values[slot]`: the case's value when it is a finite number, NaN otherwise
 *   (no value, a text, a list, null, an infinity);
 * - `verdicts[slot]` (metrics ending in `/rating` only): 2 for "yes", 1 for "no", 0 otherwise;
 * - `numberSeen`: some case had a number (finite or not), which makes the metric numeric;
 * - `errorCount`: cases whose value is a text, for `<prefix>/error_message` metrics.
 * The arrays exist only once a value needs them, so texts (rationales) cost no memory.
 */
export interface MetricColumn {
  values?: Float64Array;
  verdicts?: Uint8Array;
  numberSeen: boolean;
  errorCount: number;
}

/** engine -> metric -> column, over one segment of `size` cases. */
export interface SegmentColumns {
  readonly size: number;
  readonly engines: Map<string, Map<string, MetricColumn>>;
}

export const VERDICT_NO = 1;
export const VERDICT_YES = 2;

export function emptySegment(size: number): SegmentColumns {
  return { size, engines: new Map() };
}

/** Folds one case's metrics of one engine into the segment, at the case's slot. */
export function foldEngineMetrics(
  segment: SegmentColumns,
  slot: number,
  engine: string,
  metrics: Readonly<Record<string, MetricValue>>,
): void {
  let columns = segment.engines.get(engine);
  if (columns === undefined) {
    columns = new Map();
    segment.engines.set(engine, columns);
  }
  for (const [name, value] of Object.entries(metrics)) {
    let column = columns.get(name);
    if (column === undefined) {
      column = { numberSeen: false, errorCount: 0 };
      columns.set(name, column);
    }
    foldValue(segment.size, column, name, slot, value);
  }
}

function foldValue(size: number, column: MetricColumn, name: string, slot: number, value: MetricValue): void {
  if (name.endsWith(ERROR_MESSAGE)) {
    if (typeof value === 'string') column.errorCount += 1;
    return;
  }
  if (typeof value === 'number') {
    column.numberSeen = true;
    if (Number.isFinite(value)) {
      column.values ??= new Float64Array(size).fill(Number.NaN);
      column.values[slot] = value;
    }
    return;
  }
  if (name.endsWith(RATING) && (value === 'yes' || value === 'no')) {
    column.verdicts ??= new Uint8Array(size);
    column.verdicts[slot] = value === 'yes' ? VERDICT_YES : VERDICT_NO;
  }
}

/**
 * The finite numbers of a metric across segments, in case order. Counted
 * first and copied once into an array of that size: a million-case run's
 * metric is one 8 MB array, not the garbage of an array grown a push at a
 * time, which a reduce made eighteen times over would leave for the collector.
 */
export function finiteValues(columns: readonly MetricColumn[]): Float64Array {
  let count = 0;
  for (const column of columns) for (const value of column.values ?? []) if (!Number.isNaN(value)) count++;
  const numbers = new Float64Array(count);
  let next = 0;
  for (const column of columns) for (const value of column.values ?? []) if (!Number.isNaN(value)) numbers[next++] = value;
  return numbers;
}

/** The yes/no verdicts of a metric across segments, in case order, as 1 (yes) and 0 (no), counted first as finiteValues does. */
export function verdictValues(columns: readonly MetricColumn[]): Float64Array {
  let count = 0;
  for (const column of columns) for (const verdict of column.verdicts ?? []) if (verdict !== 0) count++;
  const verdicts = new Float64Array(count);
  let next = 0;
  for (const column of columns)
    for (const verdict of column.verdicts ?? []) if (verdict !== 0) verdicts[next++] = verdict === VERDICT_YES ? 1 : 0;
  return verdicts;
}

/**
 * A case's value of a metric as a comparison and a leaderboard read it, from
 * its column: a finite number as it is; for a metric ending in `/rating`, yes
 * as 1 and no as 0; undefined when the case has neither.
 */
export function comparableColumnValue(column: MetricColumn | undefined, slot: number, metric: string): number | undefined {
  const value = column?.values?.[slot];
  if (value !== undefined && !Number.isNaN(value)) return value;
  if (!metric.endsWith(RATING)) return undefined;
  const verdict = column?.verdicts?.[slot] ?? 0;
  if (verdict === 0) return undefined;
  return verdict === VERDICT_YES ? 1 : 0;
}
