import { z } from 'zod';
import type { MetricColumn, SegmentColumns } from './metric-columns.js';
import { compareText } from './ordering.js';
import { readJsonWith } from '../schema/parse-json-with.js';
import { failedCaseSchema, type FailedCase } from '../schema/report.js';
import { judgeUsageSchema, type JudgeUsageRecord } from '../schema/run-records.js';

/**
 * The reducer aggregates a run in ranges of this many consecutive case ids
 * (sorted): one range's records are in memory at a time, and a split reduce
 * gives each range to its own invocation.
 */
export const REDUCE_RANGE_SIZE = 5_000;

export const OUTCOME_MISSING = 0;
export const OUTCOME_EVALUATED = 1;
export const OUTCOME_FAILED = 2;

/**
 * What one range of a run contributes to the report, mergeable with the
 * other ranges exactly: counts are integers, and the per-case values stay in
 * columns (see metric-columns.ts) so that the merge takes every sum over the
 * whole run in case-id order, as a single pass would.
 */
export interface RangePartial {
  /** The range's index: it covers sorted case ids [range × REDUCE_RANGE_SIZE, +size). */
  readonly range: number;
  /** Per case of the range: OUTCOME_MISSING, OUTCOME_EVALUATED or OUTCOME_FAILED. */
  readonly outcomes: Uint8Array;
  /** Per case of the range: its request id when it was evaluated, else "" (a comparison pairs cases by request id). */
  readonly requestIds: readonly string[];
  /** Failed cases (a failure and no result), in case-id order. */
  readonly failed: readonly FailedCase[];
  /** The evaluated cases' judgments that ended in error, one per case and judge, by case id then judge id (shared/report/judge-failures.ts). */
  readonly judgeFailures: readonly FailedCase[];
  /** Judge usage of the range's results, per judge id (integer counts, so any order sums exactly). */
  readonly judgeUsage: Readonly<Record<string, JudgeUsageRecord>>;
  /** Evaluated cases of the range whose LLM judges were skipped at the cost ceiling (0 when absent). */
  readonly judgingSkipped?: number;
  readonly columns: SegmentColumns;
}

const columnSchema = z.object({
  values: z.base64().optional(),
  verdicts: z.base64().optional(),
  number_seen: z.boolean(),
  error_count: z.number().int().nonnegative(),
});

/** A partial as stored in `runs/<run>/partials/<range>.json`: typed arrays as base64 of their little-endian bytes. */
export const storedPartialSchema = z.object({
  range: z.number().int().nonnegative(),
  size: z.number().int().nonnegative(),
  outcomes: z.base64(),
  request_ids: z.array(z.string()),
  failed: z.array(z.object({ case_id: z.string(), error: z.string() })),
  judge_failures: z.array(failedCaseSchema.required()).default([]),
  judge_usage: z.record(z.string(), judgeUsageSchema),
  judging_skipped: z.number().int().nonnegative().default(0),
  engines: z.record(z.string(), z.record(z.string(), columnSchema)),
});

export function serializePartial(partial: RangePartial): string {
  const engines = Object.fromEntries(
    [...partial.columns.engines]
      .sort(([left], [right]) => compareText(left, right))
      .map(([engine, columns]) => [
        engine,
        Object.fromEntries(
          [...columns]
            .sort(([left], [right]) => compareText(left, right))
            .map(([name, column]) => [
              name,
              {
                ...(column.values === undefined ? {} : { values: toBase64(column.values) }),
                ...(column.verdicts === undefined ? {} : { verdicts: toBase64(column.verdicts) }),
                number_seen: column.numberSeen,
                error_count: column.errorCount,
              },
            ]),
        ),
      ]),
  );
  return JSON.stringify({
    range: partial.range,
    size: partial.columns.size,
    outcomes: toBase64(partial.outcomes),
    request_ids: partial.requestIds,
    failed: partial.failed,
    judge_failures: partial.judgeFailures,
    judge_usage: partial.judgeUsage,
    judging_skipped: partial.judgingSkipped ?? 0,
    engines,
  });
}

export function parsePartial(text: string | Uint8Array, where = 'a range partial'): RangePartial {
  const stored = readJsonWith(storedPartialSchema, text, where);
  const engines = new Map<string, Map<string, MetricColumn>>();
  for (const [engine, columns] of Object.entries(stored.engines)) {
    const parsed = new Map<string, MetricColumn>();
    for (const [name, column] of Object.entries(columns)) {
      parsed.set(name, {
        ...(column.values === undefined ? {} : { values: float64From(column.values, stored.size) }),
        ...(column.verdicts === undefined ? {} : { verdicts: bytesFrom(column.verdicts, stored.size) }),
        numberSeen: column.number_seen,
        errorCount: column.error_count,
      });
    }
    engines.set(engine, parsed);
  }
  return {
    range: stored.range,
    outcomes: bytesFrom(stored.outcomes, stored.size),
    requestIds: stored.request_ids,
    failed: stored.failed,
    judgeFailures: stored.judge_failures,
    judgeUsage: stored.judge_usage,
    judgingSkipped: stored.judging_skipped,
    columns: { size: stored.size, engines },
  };
}

function toBase64(array: Float64Array | Uint8Array): string {
  return Buffer.from(array.buffer, array.byteOffset, array.byteLength).toString('base64');
}

function bytesFrom(text: string, size: number): Uint8Array {
  const bytes = new Uint8Array(Buffer.from(text, 'base64'));
  if (bytes.length !== size) throw new Error(`Expected a stored partial column of ${size} bytes, got ${bytes.length}`);
  return bytes;
}

function float64From(text: string, size: number): Float64Array {
  const bytes = Buffer.from(text, 'base64');
  if (bytes.length !== size * 8) throw new Error(`Expected a stored partial column of ${size} numbers, got ${bytes.length} bytes`);
  // Copied into a fresh buffer: a Float64Array needs an 8-byte aligned offset.
  const values = new Float64Array(size);
  new Uint8Array(values.buffer).set(bytes);
  return values;
}
