import { describe, expect, it } from 'vitest';
import { aggregateRange } from '../../../shared/reduce/aggregate-range.js';
import { compareWithBaseline, type QueryDelta } from '../../../shared/compare/baselines.js';
import { compareColumnsWithBaseline } from '../../../shared/compare/column-comparison.js';
import { reportFromPartials } from '../../../shared/report/partials-report.js';
import { runKeys } from '../../../shared/run/run-identity.js';
import { MemoryStore } from '../../../shared/ports/memory-store.js';
import { reportInOnePass, reportJson } from '../../../shared/report/aggregate.js';
import { caseLines, casesJsonl } from '../../../shared/report/cases-jsonl.js';
import { compareText } from '../../../shared/report/ordering.js';
import { syntheticRun } from '../../support/synthetic-run.js';

const target = { runId: 'run-0', kind: 'previous' as const };

/** A baseline run (other seed, run id run-0) with its report files stored, and this run's partials. */
async function prepare(count: number) {
  const store = new MemoryStore();
  const earlier = await syntheticRun(count, undefined, 99);
  const baseline = reportInOnePass({
    manifest: { ...earlier.manifest, run_id: 'run-0' },
    results: earlier.results.map((result) => ({ ...result, run_id: 'run-0' })),
    failures: [],
    caseIds: earlier.caseIds,
  });
  await store.put(runKeys.report('faq', 'run-0', 'report.json'), reportJson(baseline));
  await store.put(runKeys.report('faq', 'run-0', 'cases.jsonl'), casesJsonl(earlier.results));
  const run = await syntheticRun(count, store);
  const sortedCaseIds = [...run.caseIds].sort(compareText);
  const { partial } = await aggregateRange(store, run.manifest.run_id, 0, sortedCaseIds);
  const report = reportFromPartials(run.manifest, sortedCaseIds, [partial], []);
  return { store, run, report, partials: [partial], sortedCaseIds };
}

const key = (delta: QueryDelta): string => JSON.stringify([delta.case_id, delta.engine, delta.metric]);

describe('compareColumnsWithBaseline', () => {
  it('gives the comparison the whole case lines give, and the largest per-query changes of each metric', async () => {
    // Prepare: request ids follow case ids, so both pair the cases in the same order
    const { store, run, report, partials, sortedCaseIds } = await prepare(400);

    // Act
    const fromColumns = await compareColumnsWithBaseline(store, { report, partials, sortedCaseIds }, target);
    const fromLines = await compareWithBaseline(store, { report, cases: caseLines(run.results) }, target);

    // Assess
    expect(fromColumns?.comparison).toEqual(fromLines?.comparison);
    expect(Object.keys(fromColumns?.comparison.engines ?? {})).toEqual(['bm25', 'dense']);
    const all = new Map((fromLines?.perQuery ?? []).map((delta) => [key(delta), delta]));
    const kept = fromColumns?.perQuery ?? [];
    expect(kept.length).toBeGreaterThan(0);
    expect(kept.length).toBeLessThan(all.size);
    for (const delta of kept) expect(all.get(key(delta))).toEqual(delta);
    const ndcg = [...all.values()]
      .filter((delta) => delta.engine === 'bm25' && delta.metric === 'retrieval/ground_truth/ndcg@10')
      .sort((left, right) => left.delta - right.delta);
    expect(kept.map(key)).toContain(key(ndcg[0] as QueryDelta));
    expect(kept.map(key)).toContain(key(ndcg[ndcg.length - 1] as QueryDelta));
  });

  it.each([
    ['a line that is not JSON', '{"engine":'],
    ['a second line of one engine and request', undefined],
  ])('makes no comparison with a baseline holding %s', async (_name, extra) => {
    // Prepare
    const { store, report, partials, sortedCaseIds } = await prepare(20);
    const key = runKeys.report('faq', 'run-0', 'cases.jsonl');
    const text = new TextDecoder().decode(await store.get(key));
    await store.put(key, `${text}${extra ?? text.split('\n')[0]}\n`);

    // Act / Assess
    expect(await compareColumnsWithBaseline(store, { report, partials, sortedCaseIds }, target)).toBeUndefined();
  });

  it('makes none without a target', async () => {
    const { store, report, partials, sortedCaseIds } = await prepare(5);
    expect(await compareColumnsWithBaseline(store, { report, partials, sortedCaseIds }, undefined)).toBeUndefined();
  });
});
