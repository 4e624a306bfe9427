import { describe, expect, it } from 'vitest';
import { EXCERPT_PER_METRIC, FULL_HTML_CASE_LIMIT } from '../../../shared/reduce/light-report-cases.js';
import { reportRun } from '../../../shared/reduce/reduce.js';
import { runCompletion } from '../../../shared/run/run-completion.js';
import { runKeys } from '../../../shared/run/run-identity.js';
import { MemoryStore } from '../../../shared/ports/memory-store.js';
import { casesJsonl } from '../../../shared/report/cases-jsonl.js';
import { syntheticRun } from '../../support/synthetic-run.js';

async function reportOf(count: number) {
  const store = new MemoryStore();
  const run = await syntheticRun(count, store);
  const reported = await reportRun(store, await runCompletion(store, run.manifest.run_id));
  const text = async (name: string) =>
    new TextDecoder().decode(await store.get(runKeys.report(run.manifest.suite, run.manifest.run_id, name)));
  return { run, reported, html: await text('report.html'), cases: await text('cases.jsonl') };
}

/** The rows of the per-query table. */
function perQueryRows(html: string): string[] {
  const table = /<table id="per-query-table"[\s\S]*?<\/table>/.exec(html)?.[0] ?? '';
  return [...table.matchAll(/<tr><td><code>([^<]*)<\/code>/g)].map((match) => match[1] as string);
}

describe('report.html of a large run', () => {
  it(`lists every case up to ${FULL_HTML_CASE_LIMIT} cases`, async () => {
    // Act
    const { run, html } = await reportOf(FULL_HTML_CASE_LIMIT);

    // Assess: one row per case and engine
    const lines = run.results.reduce((total, result) => total + Object.keys(result.engines).length, 0);
    expect(perQueryRows(html)).toHaveLength(lines);
    expect(html).toContain(`${lines} rows: one per case and engine.`);
  });

  it('shows the best and worst cases of each key metric above it, and cases.jsonl still has them all', async () => {
    // Act
    const { run, html, cases } = await reportOf(FULL_HTML_CASE_LIMIT + 1);

    // Assess: four key statistics (ndcg@10 and precision, correctness, groundedness) of two engines pick at most
    // 2 × 50 cases each, and the page says the table is an excerpt
    const shown = new Set(perQueryRows(html));
    expect(shown.size).toBeGreaterThan(2 * EXCERPT_PER_METRIC);
    expect(shown.size).toBeLessThanOrEqual(4 * 2 * 2 * EXCERPT_PER_METRIC);
    expect(html).toContain(`of a run of ${FULL_HTML_CASE_LIMIT + 1} cases: the best and worst ${EXCERPT_PER_METRIC} cases`);
    expect(html).toContain('Every case is in cases.jsonl');
    expect(cases).toBe(casesJsonl(run.results));
  });

  it('picks the cases with the highest and the lowest values', async () => {
    // Act
    const { run, html } = await reportOf(FULL_HTML_CASE_LIMIT + 1);

    // Assess: the 50 best and the 50 worst ndcg@10 of bm25 are all on the page
    const ndcg = run.results
      .map((result) => ({ caseId: result.case_id, value: result.engines.bm25?.['retrieval/ground_truth/ndcg@10'] as number }))
      .sort((left, right) => left.value - right.value);
    const shown = new Set(perQueryRows(html));
    const extremes = [...ndcg.slice(0, EXCERPT_PER_METRIC), ...ndcg.slice(-EXCERPT_PER_METRIC)].map((entry) => entry.caseId);
    expect(extremes.filter((caseId) => !shown.has(caseId))).toEqual([]);
    expect(shown.size).toBeLessThan(ndcg.length);
  });
});
