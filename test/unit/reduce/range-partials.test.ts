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
import type { CaseFailure, CaseResult } from '../../../shared/schema/run-records.js';
import { minAgreementOf, withAgreement } from '../../../shared/report/report-agreement.js';
import { caseLineSchema, reportSchema } from '../../../shared/schema/report.js';
import { syntheticRun } from '../../support/synthetic-run.js';
import { failure, manifest, result, RUN_ID, usage } from '../report/factories.js';

const CORRECTNESS = 'response/llm_judged/correctness';
const CHUNKS = 'retrieval/llm_judged/chunk_relevance';

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
    // Kind 6 (a case of every 50 from 6 up to 10,956) is evaluated with an unparseable correctness verdict: 220 cases.
    expect(merged.cases).toEqual({ total: 11_003, evaluated: 10_562, failed: 221, missing: 220, judge_failed: 220 });
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

  it('carry the judgments that ended in error, range by range, into the same failed_cases and judge_failed as one pass', async () => {
    // Prepare: 5,010 cases over two ranges. Case i: bm25's correctness fails when i % 7 = 0; dense's chunk judge
    // when i % 11 = 0 and its correctness when i % 14 = 0; the case fails as a whole when i % 19 = 0 and is
    // missing when i % 23 = 0 (a whole failure or a missing case has no result, so no judge failure)
    const store = new MemoryStore();
    const ids = Array.from({ length: REDUCE_RANGE_SIZE + 10 }, (_, index) => `c${String(index).padStart(5, '0')}`);
    const run = manifest(ids);
    const results: CaseResult[] = [];
    const failures: CaseFailure[] = [];
    for (const [index, caseId] of ids.entries()) {
      if (index % 19 === 0) {
        const failed = failure(caseId, `timed out ${index}`);
        failures.push(failed);
        await store.put(runKeys.failure(RUN_ID, caseId), JSON.stringify(failed));
        continue;
      }
      if (index % 23 === 0) continue;
      const verdict = (failed: boolean, error: string) => ({
        [`${CORRECTNESS}/rating`]: failed ? null : index % 2 === 0 ? 'yes' : 'no',
        [`${CORRECTNESS}/error_message`]: failed ? error : null,
      });
      const record = result(caseId, {
        bm25: { ...verdict(index % 7 === 0, `bm25 ${index}: not JSON`), 'retrieval/ground_truth/ndcg@10': (index % 10) / 10 },
        dense: {
          ...verdict(index % 14 === 0, `dense ${index}: not JSON`),
          [`${CHUNKS}/precision`]: index % 11 === 0 ? null : 0.5,
          [`${CHUNKS}/error_message`]: index % 11 === 0 ? `1 of 3 chunks could not be judged: case ${index}` : null,
        },
      });
      results.push(record);
      await store.put(runKeys.result(RUN_ID, caseId), JSON.stringify(record));
    }

    // Act: each range aggregated on its own, stored and read back, then merged
    const partials = await Promise.all(
      [0, 1].map(async (range) => {
        const aggregated = await aggregateRange(
          store,
          RUN_ID,
          range,
          ids.slice(range * REDUCE_RANGE_SIZE, (range + 1) * REDUCE_RANGE_SIZE),
        );
        return parsePartial(serializePartial(aggregated.partial));
      }),
    );
    const merged = reportFromPartials(run, ids, partials, []);

    // Assess: byte for byte one pass's report, whose counts follow from the rule above
    expect(reportJson(merged)).toBe(reportJson(reportInOnePass({ manifest: run, results, failures, caseIds: ids })));
    const judged = (index: number) => index % 19 !== 0 && index % 23 !== 0;
    const lacking = ids.filter((_, index) => judged(index) && (index % 7 === 0 || index % 11 === 0)).length;
    expect(merged.cases.judge_failed).toBe(lacking);
    expect(merged.cases.evaluated).toBe(results.length);
    // Cases 4,990 to 5,009, over the range boundary: 4,991 missing (23 × 217), 4,994 (11 × 454) a chunk failure on dense,
    // 4,997 failed (19 × 263), 4,998 (14 × 357) correctness on both engines, 5,005 (7 × 715 = 11 × 455) on one each.
    const around = merged.failed_cases.filter((entry) => entry.case_id >= 'c04990' && entry.case_id <= 'c05009');
    expect(around).toEqual([
      { case_id: 'c04994', error: '1 of 3 chunks could not be judged: case 4994', judge: 'chunk_relevance', engines: ['dense'] },
      { case_id: 'c04997', error: 'timed out 4997' },
      { case_id: 'c04998', error: 'bm25 4998: not JSON', judge: 'correctness', engines: ['bm25', 'dense'] },
      { case_id: 'c05005', error: '1 of 3 chunks could not be judged: case 5005', judge: 'chunk_relevance', engines: ['dense'] },
      { case_id: 'c05005', error: 'bm25 5005: not JSON', judge: 'correctness', engines: ['bm25'] },
    ]);
    expect(merged.missing_cases).toContain('c04991');
    expect(reportSchema.parse(merged)).toEqual(merged);
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
