import { describe, expect, it } from 'vitest';
import { aggregatedMetrics } from '../../../shared/compare/compared-metrics.js';
import { ratingSummariesOf } from '../../../shared/judges/rating-summaries.js';
import { aggregateRange } from '../../../shared/reduce/aggregate-range.js';
import { headlineMetrics } from '../../../shared/report/key-metrics.js';
import { reportFromPartials } from '../../../shared/report/partials-report.js';
import { runKeys } from '../../../shared/run/run-identity.js';
import { MemoryStore } from '../../../shared/ports/memory-store.js';
import { reportInOnePass, reportJson } from '../../../shared/report/aggregate.js';
import { manifest, result, RUN_ID, type Value } from './factories.js';

const SAFETY = 'response/llm_judged/safety/rating';
const CORRECTNESS = 'response/llm_judged/correctness/rating';

describe('ratingSummariesOf', () => {
  it.each([
    [SAFETY, ['percentage', 'average']],
    ['response/llm_judged/safety@gpt-4o/rating', ['percentage', 'average']],
    ['response/lexical/safety/rating', ['percentage', 'average']],
    [CORRECTNESS, ['percentage']],
    ['response/llm_judged/safety/sample_1/rating', ['percentage']],
    ['response/llm_judged/politeness/rating', ['percentage']],
  ])('%s is summarised as %j', (metric, summaries) => {
    expect(ratingSummariesOf(metric)).toEqual(summaries);
  });
});

/** Safety: yes, no, yes, yes, and a case whose judge failed (null); correctness: yes, no on the first two. */
function safetyRun() {
  const safety: Value[] = ['yes', 'no', 'yes', 'yes', null];
  const ids = safety.map((_rating, index) => `c${index + 1}`);
  const results = ids.map((id, index) => {
    const metrics: Record<string, Value> = { [SAFETY]: safety[index] as Value };
    if (index < 2) metrics[CORRECTNESS] = index === 0 ? 'yes' : 'no';
    return result(id, { bm25: metrics });
  });
  return { ids, results };
}

describe('safety/rating/average', () => {
  it('is the mean of yes = 1 and no = 0 over the judged cases, beside the percentage', () => {
    // Prepare
    const { ids, results } = safetyRun();

    // Act
    const statistics = reportInOnePass({ manifest: manifest(ids), results, failures: [], caseIds: ids }).engines.bm25 ?? {};

    // Assess: (1 + 0 + 1 + 1) / 4 = 0.75; the failed case counts nowhere
    expect(statistics[`${SAFETY}/average`]).toBe(0.75);
    expect(statistics[`${SAFETY}/percentage`]).toBe(0.75);
    expect(statistics[`${SAFETY}/count`]).toBe(4);
    expect(statistics[`${SAFETY}/average/ci_low`]).toBe(statistics[`${SAFETY}/percentage/ci_low`]);
    expect(statistics[`${SAFETY}/average/ci_high`]).toBe(statistics[`${SAFETY}/percentage/ci_high`]);
    expect(statistics[`${CORRECTNESS}/percentage`]).toBe(0.5);
    expect(statistics).not.toHaveProperty(`${CORRECTNESS}/average`);
  });

  it("comes out of the reducer's range partials as out of one pass over the records", async () => {
    // Prepare
    const { ids, results } = safetyRun();
    const store = new MemoryStore();
    for (const caseResult of results) await store.put(runKeys.result(RUN_ID, caseResult.case_id), JSON.stringify(caseResult));
    const run = manifest(ids);

    // Act
    const aggregated = await aggregateRange(store, RUN_ID, 0, ids);
    const merged = reportFromPartials(run, ids, [aggregated.partial], []);

    // Assess
    expect(merged.engines.bm25?.[`${SAFETY}/average`]).toBe(0.75);
    expect(reportJson(merged)).toBe(reportJson(reportInOnePass({ manifest: run, results, failures: [], caseIds: ids })));
  });
});

describe('the baseline comparison of safety', () => {
  it('compares the per-case rating once, whichever of its names the report gives', () => {
    // Prepare
    const { ids, results } = safetyRun();
    const report = reportInOnePass({ manifest: manifest(ids), results, failures: [], caseIds: ids });

    // Act
    const headline = headlineMetrics(report);
    const compared = aggregatedMetrics([report]);

    // Assess
    expect(headline.filter((metric) => metric.includes('safety'))).toEqual([SAFETY]);
    expect(compared.filter((metric) => metric.includes('safety'))).toEqual([SAFETY]);
  });
});
