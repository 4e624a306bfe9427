import { describe, expect, it } from 'vitest';
import { rangeAggregatorOf, type RangeAggregator } from '../../../shared/pipeline/aggregate-range.js';
import { piecewiseAggregator } from '../../../shared/pipeline/range-pieces.js';
import { serializePartial } from '../../../shared/pipeline/range-partial.js';
import { runKeys } from '../../../shared/pipeline/run-identity.js';
import { MemoryStore } from '../../../shared/ports/memory-store.js';
import { compareText } from '../../../shared/report/ordering.js';
import { syntheticRun } from '../../support/synthetic-run.js';
import { result, RUN_ID, usage, type Value } from '../report/factories.js';

describe('a reduce range aggregated in pieces', () => {
  it.each([2, 3, 7])('joins %i pieces into the partial, cases.jsonl text and lines of one aggregation', async (pieces) => {
    // Prepare: failures, missing cases, ratings, error messages and judge usage (synthetic-run.ts)
    const store = new MemoryStore();
    const run = await syntheticRun(437, store);
    const sorted = [...run.caseIds].sort(compareText);
    const whole = rangeAggregatorOf(store, run.manifest.run_id);

    // Act
    const [once, pieced] = await Promise.all([whole(0, sorted, true), piecewiseAggregator(whole, pieces)(0, sorted, true)]);

    // Assess: the stored form walks engines and metrics in order, so equal text means equal order too
    expect(serializePartial(pieced.partial)).toBe(serializePartial(once.partial));
    expect(pieced.text).toBe(once.text);
    expect(pieced.lines).toEqual(once.lines);
  });

  it('meets an engine first in a later piece where one aggregation meets it, and adds up the judge usage', async () => {
    // Prepare: 40 cases of bm25; the last five also of "late", rated, with judge calls
    const store = new MemoryStore();
    const ids = Array.from({ length: 40 }, (_, index) => `c${String(index).padStart(2, '0')}`);
    for (const [index, caseId] of ids.entries()) {
      const engines: Record<string, Record<string, Value>> = { bm25: { 'retrieval/ground_truth/precision@5': index / 40 } };
      if (index >= 35) engines.late = { 'response/llm_judged/safety/rating': index % 2 === 0 ? 'yes' : 'no', 'retrieval/ground_truth/precision@5': 0.2 };
      const record = result(caseId, engines, index >= 35 ? { safety: usage({ calls: 1, input_tokens: index }) } : {});
      await store.put(runKeys.result(RUN_ID, caseId), JSON.stringify(record));
    }
    const whole = rangeAggregatorOf(store, RUN_ID);

    // Act: pieces of ten cases
    const [once, pieced] = await Promise.all([whole(0, ids, false), piecewiseAggregator(whole, 4, 10)(0, ids, false)]);

    // Assess
    expect(serializePartial(pieced.partial)).toBe(serializePartial(once.partial));
    expect([...pieced.partial.columns.engines.keys()]).toEqual(['bm25', 'late']);
    expect(pieced.partial.judgeUsage.safety).toEqual(usage({ calls: 5, input_tokens: 35 + 36 + 37 + 38 + 39 }));
    expect(pieced.lines).toBeUndefined();
  });

  it('aggregates a range too small to split in one piece', async () => {
    // Prepare: a range of 20 cases, pieces of at least 16
    const store = new MemoryStore();
    const run = await syntheticRun(20, store);
    const sorted = [...run.caseIds].sort(compareText);
    const calls: number[] = [];
    const counting: RangeAggregator = (range, caseIds, keepLines) => {
      calls.push(caseIds.length);
      return rangeAggregatorOf(store, run.manifest.run_id)(range, caseIds, keepLines);
    };

    // Act
    await piecewiseAggregator(counting, 2)(0, sorted, true);

    // Assess
    expect(calls).toEqual([20]);
  });
});
