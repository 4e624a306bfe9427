import pLimit from 'p-limit';
import type { ObjectStore } from '../ports/object-store.js';
import { caseLines, caseLineTexts } from '../report/cases-jsonl.js';
import { judgeFailuresOf } from '../report/judge-failures.js';
import { totalJudgeUsage } from '../report/judge-usage.js';
import { emptySegment, foldEngineMetrics } from '../report/metric-columns.js';
import { readJsonWith } from '../schema/parse-json-with.js';
import type { CaseLine, FailedCase } from '../schema/report.js';
import { caseFailureSchema, caseResultSchema, type CaseFailure, type CaseResult } from '../schema/run-records.js';
import { OUTCOME_EVALUATED, OUTCOME_FAILED, type RangePartial } from '../report/range-partial.js';
import { runKeys } from '../run/run-identity.js';
import { FileWriter } from '../ports/file-writer.js';

/** Result reads in flight at once: enough to hide a store's latency (S3 GETs of 20-50 ms), few enough for one process. */
export const READ_CONCURRENCY = 32;

export interface AggregatedRange {
  readonly partial: RangePartial;
  /** The range's lines of cases.jsonl, in file order. */
  readonly lines: readonly CaseLine[];
}

/** A range as the report needs it: its partial, the files holding its lines of cases.jsonl, and (when asked for) the lines the pages list. */
export interface AggregatedRangeFiles {
  readonly partial: RangePartial;
  /** Local files holding the range's lines of cases.jsonl, in file order, to be joined in this order. */
  readonly linesFiles: readonly string[];
  /** The range's lines without their ranked lists: what report.html and the baseline comparison read. */
  readonly lines?: readonly CaseLine[];
}

/**
 * Aggregates one range (sorted, consecutive case ids), writing its lines of
 * cases.jsonl to files starting with `linesPath`; `keepLines` asks for the
 * lines as values too.
 */
export type RangeAggregator = (
  range: number,
  caseIds: readonly string[],
  keepLines: boolean,
  linesPath: string,
) => Promise<AggregatedRangeFiles>;

/** The range aggregator of one process: the range's records folded, and its lines written to `linesPath` line by line. */
export function rangeAggregatorOf(store: ObjectStore, runId: string): RangeAggregator {
  return async (range, caseIds, keepLines, linesPath) => {
    const { partial, evaluated } = await aggregateResults(store, runId, range, caseIds);
    const output = new FileWriter(linesPath);
    try {
      for (const text of caseLineTexts(evaluated)) await output.write(text);
    } finally {
      await output.close();
    }
    return { partial, linesFiles: [linesPath], ...(keepLines ? { lines: caseLines(evaluated, false) } : {}) };
  };
}

/**
 * Reads one range of a run's case ids (sorted, consecutive) and folds it into
 * a partial: each case's result (with its judgments that ended in error),
 * else its failure (a result wins over a failure: a redrive succeeded), else
 * it is missing. The reads overlap
 * (READ_CONCURRENCY at once); the folding goes in case-id order, so the same
 * records give the same partial whatever order the reads finish in.
 *
 * Records contradict the run when one belongs to another run or sits under
 * the key of another case: bugs upstream, since every record lives under a
 * deterministic key of its case, and they throw rather than skew the counts.
 */
export async function aggregateRange(
  store: ObjectStore,
  runId: string,
  range: number,
  caseIds: readonly string[],
): Promise<AggregatedRange> {
  const { partial, evaluated } = await aggregateResults(store, runId, range, caseIds);
  return { partial, lines: caseLines(evaluated) };
}

/** aggregateRange with the range's evaluated results rather than their lines. */
export async function aggregateResults(
  store: ObjectStore,
  runId: string,
  range: number,
  caseIds: readonly string[],
): Promise<{ partial: RangePartial; evaluated: CaseResult[] }> {
  const limit = pLimit(READ_CONCURRENCY);
  const records = await Promise.all(caseIds.map((caseId) => limit(() => readCase(store, runId, caseId))));
  const columns = emptySegment(caseIds.length);
  const outcomes = new Uint8Array(caseIds.length);
  const requestIds = new Array<string>(caseIds.length).fill('');
  const failed: FailedCase[] = [];
  const judgeFailures: FailedCase[] = [];
  const evaluated: CaseResult[] = [];
  for (const [slot, record] of records.entries()) {
    if (record === undefined) continue;
    if (record.kind === 'failure') {
      outcomes[slot] = OUTCOME_FAILED;
      failed.push({ case_id: record.failure.case_id, error: record.failure.error });
      continue;
    }
    outcomes[slot] = OUTCOME_EVALUATED;
    requestIds[slot] = record.result.request_id;
    evaluated.push(record.result);
    judgeFailures.push(...judgeFailuresOf(record.result));
    for (const [engine, metrics] of Object.entries(record.result.engines)) foldEngineMetrics(columns, slot, engine, metrics);
  }
  const judgeUsage = totalJudgeUsage(evaluated.map((result) => result.judge_usage));
  const judgingSkipped = evaluated.filter((result) => result.judging_skipped !== undefined).length;
  return { partial: { range, outcomes, requestIds, failed, judgeFailures, judgeUsage, judgingSkipped, columns }, evaluated };
}

type CaseRecord = { kind: 'result'; result: CaseResult } | { kind: 'failure'; failure: CaseFailure } | undefined;

async function readCase(store: ObjectStore, runId: string, caseId: string): Promise<CaseRecord> {
  const resultKey = runKeys.result(runId, caseId);
  const resultBytes = await store.get(resultKey);
  if (resultBytes !== undefined) {
    const result = readJsonWith(caseResultSchema, resultBytes, resultKey);
    checkRecord(result, 'results', runId, caseId);
    return { kind: 'result', result };
  }
  const failureKey = runKeys.failure(runId, caseId);
  const failureBytes = await store.get(failureKey);
  if (failureBytes === undefined) return undefined;
  const failure = readJsonWith(caseFailureSchema, failureBytes, failureKey);
  checkRecord(failure, 'failures', runId, caseId);
  return { kind: 'failure', failure };
}

function checkRecord(record: { run_id: string; case_id: string }, described: string, runId: string, caseId: string): void {
  if (record.run_id !== runId)
    throw new Error(`Expected ${described} of run "${runId}", but case "${record.case_id}" belongs to run "${record.run_id}"`);
  if (record.case_id !== caseId)
    throw new Error(`Expected ${described} of case "${caseId}" under its key, but found case "${record.case_id}" there`);
}
