import type { MetricColumn, SegmentColumns } from '../report/metric-columns.js';
import { totalJudgeUsage } from '../report/judge-usage.js';
import type { CaseLine } from '../schema/report.js';
import type { AggregatedRangeFiles, RangeAggregator } from './aggregate-range.js';
import type { RangePartial } from '../report/range-partial.js';

/**
 * A range aggregated as consecutive pieces at once (on several threads), then
 * joined: the same partial, lines files and lines as one aggregation of the whole
 * range, since a range's columns, outcomes and lines are all in case-id
 * order and its counts are integers. Pieces smaller than `minimumPiece`
 * cases are not worth a thread's hand-off.
 */
export function piecewiseAggregator(aggregatePiece: RangeAggregator, pieces: number, minimumPiece = 16): RangeAggregator {
  return async (range, caseIds, keepLines, linesPath) => {
    const count = Math.max(1, Math.min(pieces, Math.floor(caseIds.length / minimumPiece)));
    if (count === 1) return aggregatePiece(range, caseIds, keepLines, linesPath);
    const size = Math.ceil(caseIds.length / count);
    const slices = Array.from({ length: count }, (_, index) => caseIds.slice(index * size, (index + 1) * size)).filter(
      (slice) => slice.length > 0,
    );
    return joinRangePieces(
      await Promise.all(slices.map((slice, index) => aggregatePiece(range, slice, keepLines, `${linesPath}.${index}`))),
    );
  };
}

/** Consecutive pieces of one range, in order, as one aggregated range. */
export function joinRangePieces(pieces: readonly AggregatedRangeFiles[]): AggregatedRangeFiles {
  const [first] = pieces;
  if (first === undefined) throw new Error('Expected at least one piece of a range to join');
  if (pieces.length === 1) return first;
  const partials = pieces.map((piece) => piece.partial);
  const size = partials.reduce((sum, partial) => sum + partial.outcomes.length, 0);
  const outcomes = new Uint8Array(size);
  let offset = 0;
  for (const partial of partials) {
    outcomes.set(partial.outcomes, offset);
    offset += partial.outcomes.length;
  }
  const partial: RangePartial = {
    range: first.partial.range,
    outcomes,
    requestIds: partials.flatMap((piece) => piece.requestIds),
    failed: partials.flatMap((piece) => piece.failed),
    judgeFailures: partials.flatMap((piece) => piece.judgeFailures),
    judgeUsage: totalJudgeUsage(partials.map((piece) => piece.judgeUsage)),
    judgingSkipped: partials.reduce((sum, piece) => sum + (piece.judgingSkipped ?? 0), 0),
    columns: joinColumns(
      partials.map((piece) => piece.columns),
      size,
    ),
  };
  const lines = pieces.every((piece) => piece.lines !== undefined)
    ? pieces.flatMap((piece) => piece.lines as readonly CaseLine[])
    : undefined;
  return { partial, linesFiles: pieces.flatMap((piece) => piece.linesFiles), ...(lines === undefined ? {} : { lines }) };
}

/** The pieces' columns laid end to end; engines and metrics in the order a single fold would first meet them. */
function joinColumns(segments: readonly SegmentColumns[], size: number): SegmentColumns {
  const engines = new Map<string, Map<string, MetricColumn>>();
  let offset = 0;
  for (const segment of segments) {
    for (const [engine, metrics] of segment.engines) {
      let joined = engines.get(engine);
      if (joined === undefined) {
        joined = new Map();
        engines.set(engine, joined);
      }
      for (const [name, column] of metrics) {
        let target = joined.get(name);
        if (target === undefined) {
          target = { numberSeen: false, errorCount: 0 };
          joined.set(name, target);
        }
        target.numberSeen ||= column.numberSeen;
        target.errorCount += column.errorCount;
        if (column.values !== undefined) {
          target.values ??= new Float64Array(size).fill(Number.NaN);
          target.values.set(column.values, offset);
        }
        if (column.verdicts !== undefined) {
          target.verdicts ??= new Uint8Array(size);
          target.verdicts.set(column.verdicts, offset);
        }
      }
    }
    offset += segment.size;
  }
  return { size, engines };
}
