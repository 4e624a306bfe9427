import { describe, expect, it } from 'vitest';
import { aggregateRange } from '../../../shared/reduce/aggregate-range.js';
import { reportFromPartials } from '../../../shared/report/partials-report.js';
import { parsePartial, REDUCE_RANGE_SIZE, serializePartial, type RangePartial } from '../../../shared/report/range-partial.js';
import { runKeys } from '../../../shared/run/run-identity.js';
import { MemoryStore } from '../../../shared/ports/memory-store.js';
import { reportInOnePass, reportJson } from '../../../shared/report/aggregate.js';
import { casesJsonl } from '../../../shared/report/cases-jsonl.js';
import { AgreementTally } from '../../../shared/report/judge-agreement.js';
import { compareText } from '../../../shared/report/ordering.js';
import type { CaseResult } from '../../../shared/schema/run-records.js';
import { minAgreementOf, withAgreement } from '../../../shared/report/report-agreement.js';
import { caseLineSchema } from '../../../shared/schema/report.js';
import { syntheticRun } from '../../support/synthetic-run.js';
import { manifest, result, RUN_ID, usage } from '../report/factories.js';

describe('range partials', () => {
  it('merge, through their stored form, into the very report one pass over the records gives', async () => {
    // Prepare: a run of three ranges (5,000 + 5,000 + 1,003 cases) with failures, missing cases and mixed metrics
    const store = new MemoryStore();
    const run = await syntheticRun(2 * REDUCE_RANGE_SIZE + 1_003, store);
    const sorted = [...run.caseIds].sort(compareText);

    // Act: each range aggregated on its own, stored and read back, then merged
    const partials: RangePartial[] = [];
    let lines = '';
    for (let range = 0; range * REDUCE_RANGE_SIZE < sorted.length; range++) {
      const aggregated = await aggregateRange(
        store,
        run.manifest.run_id,
        range,
        sorted.slice(range * REDUCE_RANGE_SIZE, (range + 1) * REDUCE_RANGE_SIZE),
      );
      partials.push(parsePartial(serializePartial(aggregated.partial)));
      lines += aggregated.lines.map((line) => `${JSON.stringify(line)}\n`).join('');
    }
    // As write-report.ts does: the agreement block from the lines of cases.jsonl, in their order.
    const tally = new AgreementTally();
    for (const line of lines.trimEnd().split('\n')) tally.add(caseLineSchema.parse(JSON.parse(line)));
    const merged = withAgreement(
      reportFromPartials(run.manifest, sorted, partials.reverse(), []),
      tally.agreement(),
      minAgreementOf(run.manifest),
    );

    // Assess: byte for byte the report and the cases.jsonl of the whole records at once
    const onePass = reportInOnePass({ manifest: run.manifest, results: run.results, failures: run.failures, caseIds: run.caseIds });
    expect(reportJson(merged)).toBe(reportJson(onePass));
    expect(lines).toBe(casesJsonl(run.results));
    // 220 full blocks of 50 plus cases 11,000-11,002 (kinds 0-2): kind 1 failed only, kind 2 failed then evaluated, kind 3 missing.
    expect(merged.cases).toEqual({ total: 11_003, evaluated: 10_562, failed: 221, missing: 220 });
    expect(merged.agreement?.chunk_relevance?.pairs).toBeGreaterThan(10_562);
  });

  it('carry the judge cost and the cases judged past the cost ceiling into the merged report', async () => {
    // Prepare: c1 judged (1,000 input tokens of model m at USD 10 a million), c2 and c3 skipped at the ceiling
    const store = new MemoryStore();
    const ids = ['c1', 'c2', 'c3'];
    const run = manifest(ids, {
      config: {
        judge: { prices: { currency: 'USD', models: { m: { input_per_million: 10, output_per_million: 0 } } } },
        run: { max_judge_cost: 0.005 },
      },
    });
    const judged = result(
      'c1',
      { bm25: { 'response/llm_judged/safety/rating': 'yes' } },
      { safety: usage({ calls: 1, input_tokens: 1_000, models: { m: { input_tokens: 1_000, output_tokens: 0 } } }) },
    );
    const skipped = ['c2', 'c3'].map((caseId): CaseResult => ({ ...result(caseId, { bm25: {} }), judging_skipped: 'max_judge_cost' }));
    const results = [judged, ...skipped];
    for (const record of results) await store.put(runKeys.result(RUN_ID, record.case_id), JSON.stringify(record));

    // Act
    const aggregated = await aggregateRange(store, RUN_ID, 0, ids);
    const merged = reportFromPartials(run, ids, [parsePartial(serializePartial(aggregated.partial))], [], true);

    // Assess: 1,000 tokens × USD 10 / M = USD 0.01
    expect(reportJson(merged)).toBe(
      reportJson(reportInOnePass({ manifest: run, results, failures: [], caseIds: ids, budgetReached: true })),
    );
    expect(merged.judge_budget).toEqual({ max_judge_cost: 0.005, currency: 'USD', reached: true, judged_cases: 1, skipped_cases: 2 });
    expect(merged.judge_cost).toEqual({
      currency: 'USD',
      total: 0.01,
      models: { m: { input_tokens: 1_000, output_tokens: 0, cost: 0.01 } },
      judges: { safety: { cost: 0.01 } },
      unpriced_models: [],
    });
    expect(aggregated.lines.map((line) => line.judging_skipped)).toEqual([undefined, 'max_judge_cost', 'max_judge_cost']);
  });

  it('refuses partials that do not cover every range', async () => {
    // Prepare
    const store = new MemoryStore();
    const run = await syntheticRun(REDUCE_RANGE_SIZE + 10, store);
    const sorted = [...run.caseIds].sort(compareText);
    const first = await aggregateRange(store, run.manifest.run_id, 0, sorted.slice(0, REDUCE_RANGE_SIZE));

    // Act / Assess
    expect(() => reportFromPartials(run.manifest, sorted, [first.partial], [])).toThrow(
      /Expected the partials of ranges 0 to 1, got ranges 0/,
    );
  });

  it('throws on a record stored under the key of another case', async () => {
    // Prepare: case b's result holds case a's record
    const store = new MemoryStore();
    const run = await syntheticRun(4, store);
    const [first, second] = run.results;
    if (first === undefined || second === undefined) throw new Error('expected two results');
    await store.put(runKeys.result(run.manifest.run_id, second.case_id), JSON.stringify(first));

    // Act / Assess
    await expect(aggregateRange(store, run.manifest.run_id, 0, [...run.caseIds].sort(compareText))).rejects.toThrow(
      /under its key, but found case/,
    );
  });
});
