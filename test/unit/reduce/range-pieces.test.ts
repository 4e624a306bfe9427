import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { rangeAggregatorOf, type AggregatedRangeFiles, type RangeAggregator } from '../../../shared/reduce/aggregate-range.js';
import { piecewiseAggregator } from '../../../shared/reduce/range-pieces.js';
import { serializePartial } from '../../../shared/report/range-partial.js';
import { runKeys } from '../../../shared/run/run-identity.js';
import { MemoryStore } from '../../../shared/ports/memory-store.js';
import { casesJsonl } from '../../../shared/report/cases-jsonl.js';
import { compareText } from '../../../shared/report/ordering.js';
import { syntheticRun } from '../../support/synthetic-run.js';
import { createTempFolder, type TempFolder } from '../../support/temp-folder.js';
import { result, RUN_ID, usage, type Value } from '../report/factories.js';

let folder: TempFolder;
beforeEach(async () => {
  folder = await createTempFolder();
});
afterEach(async () => {
  await folder.remove();
});

/** The range's lines of cases.jsonl: its files read in order. */
async function linesText(aggregated: AggregatedRangeFiles): Promise<string> {
  const texts = await Promise.all(aggregated.linesFiles.map((file) => readFile(file, 'utf8')));
  return texts.join('');
}

describe('a reduce range aggregated in pieces', () => {
  it.each([2, 3, 7])('joins %i pieces into the partial, cases.jsonl lines and page lines of one aggregation', async (pieces) => {
    // Prepare: failures, missing cases, ratings, error messages and judge usage (synthetic-run.ts)
    const store = new MemoryStore();
    const run = await syntheticRun(437, store);
    const sorted = [...run.caseIds].sort(compareText);
    const whole = rangeAggregatorOf(store, run.manifest.run_id);

    // Act
    const once = await whole(0, sorted, true, join(folder.path, 'once'));
    const pieced = await piecewiseAggregator(whole, pieces)(0, sorted, true, join(folder.path, 'pieced'));

    // Assess: the stored form walks engines and metrics in order, so equal text means equal order too
    expect(serializePartial(pieced.partial)).toBe(serializePartial(once.partial));
    expect(pieced.linesFiles).toHaveLength(pieces);
    expect(await linesText(pieced)).toBe(await linesText(once));
    expect(await linesText(once)).toBe(casesJsonl(run.results));
    expect(pieced.lines).toEqual(once.lines);
  });

  it('meets an engine first in a later piece where one aggregation meets it, and adds up the judge usage', async () => {
    // Prepare: 40 cases of bm25; the last five also of "late", rated, with judge calls
    const store = new MemoryStore();
    const ids = Array.from({ length: 40 }, (_, index) => `c${String(index).padStart(2, '0')}`);
    for (const [index, caseId] of ids.entries()) {
      const engines: Record<string, Record<string, Value>> = { bm25: { 'retrieval/ground_truth/precision@5': index / 40 } };
      if (index >= 35)
        engines.late = { 'response/llm_judged/safety/rating': index % 2 === 0 ? 'yes' : 'no', 'retrieval/ground_truth/precision@5': 0.2 };
      const record = result(caseId, engines, index >= 35 ? { safety: usage({ calls: 1, input_tokens: index }) } : {});
      await store.put(runKeys.result(RUN_ID, caseId), JSON.stringify(record));
    }
    const whole = rangeAggregatorOf(store, RUN_ID);

    // Act: pieces of ten cases
    const once = await whole(0, ids, false, join(folder.path, 'once'));
    const pieced = await piecewiseAggregator(whole, 4, 10)(0, ids, false, join(folder.path, 'pieced'));

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
    const counting: RangeAggregator = (range, caseIds, keepLines, linesPath) => {
      calls.push(caseIds.length);
      return rangeAggregatorOf(store, run.manifest.run_id)(range, caseIds, keepLines, linesPath);
    };

    // Act
    await piecewiseAggregator(counting, 2)(0, sorted, true, join(folder.path, 'lines'));

    // Assess
    expect(calls).toEqual([20]);
  });
});
