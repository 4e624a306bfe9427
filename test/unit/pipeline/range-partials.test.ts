import { describe, expect, it } from 'vitest';
import { aggregateRange } from '../../../shared/pipeline/aggregate-range.js';
import { reportFromPartials } from '../../../shared/pipeline/partials-report.js';
import { parsePartial, REDUCE_RANGE_SIZE, serializePartial, type RangePartial } from '../../../shared/pipeline/range-partial.js';
import { runKeys } from '../../../shared/pipeline/run-identity.js';
import { MemoryStore } from '../../../shared/ports/memory-store.js';
import { buildReport, reportJson } from '../../../shared/report/aggregate.js';
import { casesJsonl } from '../../../shared/report/cases-jsonl.js';
import { AgreementTally } from '../../../shared/report/judge-agreement.js';
import { compareText } from '../../../shared/report/ordering.js';
import { minAgreementOf, withAgreement } from '../../../shared/report/report-agreement.js';
import { caseLineSchema } from '../../../shared/schema/report.js';
import { syntheticRun } from '../../support/synthetic-run.js';

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
      const aggregated = await aggregateRange(store, run.manifest.run_id, range, sorted.slice(range * REDUCE_RANGE_SIZE, (range + 1) * REDUCE_RANGE_SIZE));
      partials.push(parsePartial(serializePartial(aggregated.partial)));
      lines += aggregated.lines.map((line) => `${JSON.stringify(line)}\n`).join('');
    }
    // As write-report.ts does: the agreement block from the lines of cases.jsonl, in their order.
    const tally = new AgreementTally();
    for (const line of lines.trimEnd().split('\n')) tally.add(caseLineSchema.parse(JSON.parse(line)));
    const merged = withAgreement(reportFromPartials(run.manifest, sorted, partials.reverse(), []), tally.agreement(), minAgreementOf(run.manifest));

    // Assess: byte for byte the report and the cases.jsonl of the whole records at once
    const onePass = buildReport({ manifest: run.manifest, results: run.results, failures: run.failures, caseIds: run.caseIds });
    expect(reportJson(merged)).toBe(reportJson(onePass));
    expect(lines).toBe(casesJsonl(run.results));
    // 220 full blocks of 50 plus cases 11,000-11,002 (kinds 0-2): kind 1 failed only, kind 2 failed then evaluated, kind 3 missing.
    expect(merged.cases).toEqual({ total: 11_003, evaluated: 10_562, failed: 221, missing: 220 });
    expect(merged.agreement?.chunk_relevance?.pairs).toBeGreaterThan(10_562);
  });

  it('refuses partials that do not cover every range', async () => {
    // Prepare
    const store = new MemoryStore();
    const run = await syntheticRun(REDUCE_RANGE_SIZE + 10, store);
    const sorted = [...run.caseIds].sort(compareText);
    const first = await aggregateRange(store, run.manifest.run_id, 0, sorted.slice(0, REDUCE_RANGE_SIZE));

    // Act / Assess
    expect(() => reportFromPartials(run.manifest, sorted, [first.partial], [])).toThrow(/Expected the partials of ranges 0 to 1, got ranges 0/);
  });

  it('throws on a record stored under the key of another case', async () => {
    // Prepare: case b's result holds case a's record
    const store = new MemoryStore();
    const run = await syntheticRun(4, store);
    const [first, second] = run.results;
    if (first === undefined || second === undefined) throw new Error('expected two results');
    await store.put(runKeys.result(run.manifest.run_id, second.case_id), JSON.stringify(first));

    // Act / Assess
    await expect(aggregateRange(store, run.manifest.run_id, 0, [...run.caseIds].sort(compareText))).rejects.toThrow(/under its key, but found case/);
  });
});
