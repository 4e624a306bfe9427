import { describe, expect, it } from 'vitest';
import { reportInOnePass } from '../../../shared/report/aggregate.js';
import { reportSchema } from '../../../shared/schema/report.js';
import { failure, manifest, result, usage } from './factories.js';

const CORRECTNESS = 'response/llm_judged/correctness';
const PRECISION = 'retrieval/llm_judged/chunk_relevance/precision';
const NDCG = 'retrieval/ground_truth/ndcg@10';

describe('reportInOnePass: statistics per engine', () => {
  it('gives the share of "yes" ratings and their count', () => {
    // Prepare: yes, no, yes, and one case whose judge failed (rating null)
    const ids = ['c1', 'c2', 'c3', 'c4'];
    const results = [
      result('c1', { bm25: { [`${CORRECTNESS}/rating`]: 'yes' } }),
      result('c2', { bm25: { [`${CORRECTNESS}/rating`]: 'no' } }),
      result('c3', { bm25: { [`${CORRECTNESS}/rating`]: 'yes' } }),
      result('c4', { bm25: { [`${CORRECTNESS}/rating`]: null } }),
    ];

    // Act
    const report = reportInOnePass({ manifest: manifest(ids), results, failures: [], caseIds: ids });

    // Assess: 2 yes of 3 rated = 0.666…, the null rating counts nowhere
    expect(withoutIntervals(report.engines.bm25)).toEqual({
      [`${CORRECTNESS}/rating/count`]: 3,
      [`${CORRECTNESS}/rating/percentage`]: 2 / 3,
    });
  });

  it("summarises a live engine's latency by percentiles and counts its errors", () => {
    // Prepare: latencies 40, 10, 30, 20 ms and one case where the engine failed
    const ids = ['c1', 'c2', 'c3', 'c4', 'c5'];
    const results = [
      result('c1', { bm25: { 'engine/latency_ms': 40 } }),
      result('c2', { bm25: { 'engine/latency_ms': 10 } }),
      result('c3', { bm25: { 'engine/latency_ms': 30 } }),
      result('c4', { bm25: { 'engine/latency_ms': 20 } }),
      result('c5', { bm25: { 'engine/error_message': 'engine "bm25": the service answered 404' } }),
    ];

    // Act
    const report = reportInOnePass({ manifest: manifest(ids), results, failures: [], caseIds: ids });

    // Assess: sorted 10 20 30 40; p50 at h = 1.5 -> 25; p95 at h = 2.85 -> 30 + 0.85 * 10 = 38.5
    expect(report.engines.bm25).toEqual({
      'engine/error_count': 1,
      'engine/latency_ms/count': 4,
      'engine/latency_ms/max': 40,
      'engine/latency_ms/p50': 25,
      'engine/latency_ms/p95': 38.5,
    });
  });

  it("totals a live engine's attempts instead of averaging them, so a comparison never ranks them", () => {
    // Prepare: 1, 3 (two failed attempts first) and 1 attempts
    const ids = ['c1', 'c2', 'c3'];
    const results = [
      result('c1', { bm25: { 'engine/latency_ms': 10, 'engine/attempts': 1 } }),
      result('c2', { bm25: { 'engine/latency_ms': 10, 'engine/attempts': 3 } }),
      result('c3', { bm25: { 'engine/latency_ms': 10, 'engine/attempts': 1 } }),
    ];

    // Act
    const report = reportInOnePass({ manifest: manifest(ids), results, failures: [], caseIds: ids });

    // Assess: 1 + 3 + 1 = 5 attempts over 3 cases, at most 3
    expect(Object.fromEntries(Object.entries(report.engines.bm25 ?? {}).filter(([name]) => name.startsWith('engine/attempts')))).toEqual({
      'engine/attempts/count': 3,
      'engine/attempts/max': 3,
      'engine/attempts/total': 5,
    });
  });

  it('averages a numeric metric over the cases where it is a finite number', () => {
    // 0.5, absent, 1, null: (0.5 + 1) / 2 = 0.75 over 2 cases
    const ids = ['c1', 'c2', 'c3', 'c4'];
    const results = [
      result('c1', { bm25: { [PRECISION]: 0.5 } }),
      result('c2', { bm25: {} }),
      result('c3', { bm25: { [PRECISION]: 1 } }),
      result('c4', { bm25: { [PRECISION]: null } }),
    ];

    const report = reportInOnePass({ manifest: manifest(ids), results, failures: [], caseIds: ids });

    expect(withoutIntervals(report.engines.bm25)).toEqual({ [`${PRECISION}/average`]: 0.75, [`${PRECISION}/count`]: 2 });
  });

  it('averages a ground-truth metric over the labelled cases only and says how many', () => {
    // labelled c1 (0.25) and c3 (0.75); c2 has no labels, so no ndcg: (0.25 + 0.75) / 2 = 0.5
    const ids = ['c1', 'c2', 'c3'];
    const results = [
      result('c1', { dense: { [NDCG]: 0.25, [PRECISION]: 1 } }),
      result('c2', { dense: { [PRECISION]: 0 } }),
      result('c3', { dense: { [NDCG]: 0.75, [PRECISION]: 0.5 } }),
    ];

    const report = reportInOnePass({ manifest: manifest(ids, { engines: ['dense'] }), results, failures: [], caseIds: ids });

    expect(withoutIntervals(report.engines.dense)).toEqual({
      [`${NDCG}/average`]: 0.5,
      [`${NDCG}/count`]: 2,
      // (1 + 0 + 0.5) / 3 = 0.5 over all 3 cases
      [`${PRECISION}/average`]: 0.5,
      [`${PRECISION}/count`]: 3,
    });
  });

  it('averages a numeric rating', () => {
    // grades 3, 1, 2: (3 + 1 + 2) / 3 = 2
    const ids = ['c1', 'c2', 'c3'];
    const name = 'response/llm_judged/rubric/rating';
    const results = ids.map((id, index) => result(id, { bm25: { [name]: [3, 1, 2][index] ?? null } }));

    const report = reportInOnePass({ manifest: manifest(ids, { engines: ['bm25'] }), results, failures: [], caseIds: ids });

    expect(withoutIntervals(report.engines.bm25)).toEqual({ [`${name}/average`]: 2, [`${name}/count`]: 3 });
  });

  it('counts error messages, rationales and per-chunk lists are not aggregated', () => {
    const ids = ['c1', 'c2', 'c3'];
    const chunk = 'retrieval/llm_judged/chunk_relevance';
    const results = [
      result('c1', { bm25: { [`${CORRECTNESS}/error_message`]: 'unparseable answer', [`${CORRECTNESS}/rationale`]: null } }),
      result('c2', { bm25: { [`${CORRECTNESS}/error_message`]: null, [`${CORRECTNESS}/rationale`]: 'matches the facts' } }),
      result('c3', {
        bm25: {
          [`${CORRECTNESS}/error_message`]: 'timeout',
          [`${chunk}/ratings`]: ['yes', 'no'],
          [`${chunk}/rationales`]: ['on topic', 'off topic'],
          [`${chunk}/error_messages`]: [null, null],
          [`${chunk}/error_message`]: null,
        },
      }),
    ];

    const report = reportInOnePass({ manifest: manifest(ids, { engines: ['bm25'] }), results, failures: [], caseIds: ids });

    expect(withoutIntervals(report.engines.bm25)).toEqual({ [`${chunk}/error_count`]: 0, [`${CORRECTNESS}/error_count`]: 2 });
  });

  it('gives no average, never NaN or 0, when a metric has no usable value', () => {
    const ids = ['c1', 'c2'];
    const results = [
      result('c1', { bm25: { [`${CORRECTNESS}/rating`]: null, [PRECISION]: Number.NaN } }),
      result('c2', { bm25: { [`${CORRECTNESS}/rating`]: null, [PRECISION]: Number.POSITIVE_INFINITY } }),
    ];

    const report = reportInOnePass({ manifest: manifest(ids, { engines: ['bm25'] }), results, failures: [], caseIds: ids });

    expect(withoutIntervals(report.engines.bm25)).toEqual({ [`${CORRECTNESS}/rating/count`]: 0, [`${PRECISION}/count`]: 0 });
    expect(JSON.stringify(report)).not.toMatch(/NaN|null/);
  });

  it('keeps every engine of the manifest, with no statistics when no case was evaluated', () => {
    const ids = ['c1'];

    const report = reportInOnePass({ manifest: manifest(ids), results: [], failures: [failure('c1')], caseIds: ids });

    expect(report.engines).toEqual({ bm25: {}, dense: {} });
  });
});

describe('reportInOnePass: cases', () => {
  it('lets a result win over a failure of the same case and lists the missing cases', () => {
    // c1 evaluated; c2 failed then redriven and evaluated; c3 failed; c4 and c5 missing
    const ids = ['c5', 'c4', 'c3', 'c2', 'c1'];
    const results = [result('c2', {}), result('c1', {})];
    const failures = [failure('c3', 'throttled'), failure('c2', 'timeout')];

    const report = reportInOnePass({ manifest: manifest(ids), results, failures, caseIds: ids });

    expect(report.cases).toEqual({ total: 5, evaluated: 2, failed: 1, missing: 2, judge_failed: 0 });
    expect(report.failed_cases).toEqual([{ case_id: 'c3', error: 'throttled' }]);
    expect(report.missing_cases).toEqual(['c4', 'c5']);
    expect(reportSchema.parse(report)).toEqual(report);
  });

  it('copies the run fields from the manifest, created_at included', () => {
    const ids = ['c1'];
    const source = manifest(ids, { input_errors: 2 });

    const report = reportInOnePass({ manifest: source, results: [result('c1', {})], failures: [], caseIds: ids });

    expect(report).toMatchObject({
      run_id: source.run_id,
      suite: 'faq',
      dataset: 'datasets/faq/cases.jsonl',
      config_hash: 'hash-1',
      created_at: source.created_at,
      judge: source.judge,
      input_errors: 2,
    });
  });

  it.each([
    ['fewer case ids than the manifest counts', { caseIds: ['c1'] }, /Expected 2 case ids/],
    ['a result of an unknown case', { results: [result('c9', {})] }, /not one of its case ids/],
    ['a result of another run', { results: [{ ...result('c1', {}), run_id: 'run-2' }] }, /belongs to run "run-2"/],
    ['a failure of an unknown case', { failures: [failure('c9')] }, /not one of its case ids/],
  ])('throws on %s', (_described, overrides, message) => {
    const ids = ['c1', 'c2'];
    const input = { manifest: manifest(ids), results: [], failures: [], caseIds: ids, ...overrides };

    expect(() => reportInOnePass(input)).toThrow(message);
  });

  it('counts a case id listed twice once, and keeps the first of two results of one case', () => {
    // Prepare: what an ingest that let two requests share case id c1 left behind
    const input = {
      manifest: manifest(['c1', 'c2']),
      results: [result('c1', { bm25: { [PRECISION]: 1 } }), result('c1', { bm25: { [PRECISION]: 0 } })],
      failures: [failure('c1')],
      caseIds: ['c1', 'c1'],
    };

    // Act
    const report = reportInOnePass(input);

    // Assess
    expect(report.cases).toEqual({ total: 1, evaluated: 1, failed: 0, missing: 0, judge_failed: 0 });
    expect(report.engines.bm25?.[`${PRECISION}/average`]).toBe(1);
    expect(reportSchema.safeParse(report).success).toBe(true);
  });
});

describe('reportInOnePass: judgments that ended in error', () => {
  it('lists each case and judge once with its engines and first error, counts the cases, and keeps the case evaluated', () => {
    // Prepare: c1 judged cleanly; c2's correctness failed on bm25 and dense, its chunk judge on dense only;
    // c3's correctness failed on dense only; c4 failed as a whole
    const ids = ['c4', 'c3', 'c2', 'c1'];
    const results = [
      result('c1', { bm25: { [`${CORRECTNESS}/rating`]: 'yes', [`${CORRECTNESS}/error_message`]: null, [NDCG]: 0.5 } }),
      result('c2', {
        dense: {
          [`${CORRECTNESS}/rating`]: null,
          [`${CORRECTNESS}/error_message`]: 'dense: not JSON',
          'retrieval/llm_judged/chunk_relevance/error_message': '1 of 2 chunks could not be judged: not JSON',
        },
        bm25: { [`${CORRECTNESS}/rating`]: null, [`${CORRECTNESS}/error_message`]: 'bm25: not JSON', [NDCG]: 0.25 },
      }),
      result('c3', {
        bm25: { [`${CORRECTNESS}/rating`]: 'no', [`${CORRECTNESS}/error_message`]: null },
        dense: { [`${CORRECTNESS}/rating`]: null, [`${CORRECTNESS}/error_message`]: 'dense: no rating' },
      }),
    ];

    // Act
    const report = reportInOnePass({ manifest: manifest(ids), results, failures: [failure('c4', 'throttled')], caseIds: ids });

    // Assess: two cases lack a judgment, both still evaluated; bm25's ground truth counts c2, its correctness leaves it out
    expect(report.cases).toEqual({ total: 4, evaluated: 3, failed: 1, missing: 0, judge_failed: 2 });
    // By case id, then judge id; correctness's error is bm25's, the first engine in name order.
    expect(report.failed_cases).toEqual([
      { case_id: 'c2', error: '1 of 2 chunks could not be judged: not JSON', judge: 'chunk_relevance', engines: ['dense'] },
      { case_id: 'c2', error: 'bm25: not JSON', judge: 'correctness', engines: ['bm25', 'dense'] },
      { case_id: 'c3', error: 'dense: no rating', judge: 'correctness', engines: ['dense'] },
      { case_id: 'c4', error: 'throttled' },
    ]);
    expect(report.engines.bm25?.[`${NDCG}/count`]).toBe(2);
    expect(report.engines.bm25?.[`${CORRECTNESS}/rating/count`]).toBe(2);
    expect(report.engines.bm25?.[`${CORRECTNESS}/error_count`]).toBe(1);
    expect(reportSchema.parse(report)).toEqual(report);
  });

  it.each([
    ['an engine error', 'engine/error_message'],
    ['a per-chunk list of errors', 'retrieval/llm_judged/chunk_relevance/error_messages'],
    ['a human verdict', 'response/human/correctness/error_message'],
    ['a sample of a repeated judge', `${CORRECTNESS}/sample_2/error_message`],
  ])('does not take %s for a judge failure', (_described, name) => {
    const ids = ['c1'];
    const value = name.endsWith('/error_messages') ? ['not JSON', null] : 'not JSON';

    const report = reportInOnePass({
      manifest: manifest(ids),
      results: [result('c1', { bm25: { [name]: value } })],
      failures: [],
      caseIds: ids,
    });

    expect(report.cases.judge_failed).toBe(0);
    expect(report.failed_cases).toEqual([]);
  });

  it("names a model variant's and an ensemble's failure by the id the run gives them", () => {
    const ids = ['c1'];
    const metrics = {
      'retrieval/llm_judged/graded_relevance@gpt-4o/error_message': '1 of 3 chunks could not be judged: timed out',
      'response/lexical/panel/error_message': 'correctness: not JSON',
    };

    const report = reportInOnePass({ manifest: manifest(ids), results: [result('c1', { bm25: metrics })], failures: [], caseIds: ids });

    expect(report.failed_cases.map((entry) => entry.judge)).toEqual(['graded_relevance@gpt-4o', 'panel']);
    expect(report.cases.judge_failed).toBe(1);
  });
});

describe('reportInOnePass: judges', () => {
  it('sums the judge usage of the evaluated cases per judge, ids sorted', () => {
    const ids = ['c1', 'c2'];
    const results = [
      result('c1', {}, { correctness: usage({ calls: 2, input_tokens: 100, output_tokens: 10 }), chunk_relevance: usage({ calls: 5 }) }),
      result('c2', {}, { correctness: usage({ calls: 1, cache_hits: 1, retries: 2, errors: 1, input_tokens: 50, output_tokens: 5 }) }),
    ];

    const report = reportInOnePass({ manifest: manifest(ids), results, failures: [], caseIds: ids });

    expect(Object.keys(report.judges)).toEqual(['chunk_relevance', 'correctness']);
    expect(report.judges.correctness).toEqual({ calls: 3, cache_hits: 1, retries: 2, errors: 1, input_tokens: 150, output_tokens: 15 });
    expect(report.judges.chunk_relevance).toEqual(usage({ calls: 5 }));
  });
});

/** The statistics without their bootstrap intervals, which the interval test below covers. */
function withoutIntervals(statistics: Readonly<Record<string, number>> | undefined): Record<string, number> {
  return Object.fromEntries(Object.entries(statistics ?? {}).filter(([name]) => !/\/ci_(low|high)$/.test(name)));
}

describe('confidence intervals', () => {
  it('brackets every average and percentage with a reproducible 95% bootstrap interval', () => {
    // Prepare: precision over 6 cases, mean 0.5, and a yes/no rating
    const ids = ['c1', 'c2', 'c3', 'c4', 'c5', 'c6'];
    const values = [0, 0.2, 0.4, 0.6, 0.8, 1];
    const results = ids.map((id, index) =>
      result(id, { bm25: { [PRECISION]: values[index] as number, 'response/llm_judged/safety/rating': index % 2 === 0 ? 'yes' : 'no' } }),
    );

    // Act
    const first = reportInOnePass({ manifest: manifest(ids), results, failures: [], caseIds: ids }).engines.bm25 ?? {};
    const second =
      reportInOnePass({ manifest: manifest(ids), results: [...results].reverse(), failures: [], caseIds: ids }).engines.bm25 ?? {};

    // Assess
    const low = first[`${PRECISION}/average/ci_low`] as number;
    const high = first[`${PRECISION}/average/ci_high`] as number;
    expect(low).toBeGreaterThanOrEqual(0);
    expect(low).toBeLessThan(0.5);
    expect(high).toBeGreaterThan(0.5);
    expect(high).toBeLessThanOrEqual(1);
    expect(first['response/llm_judged/safety/rating/percentage/ci_low']).toBeLessThan(0.5);
    expect(second).toEqual(first);
  });
});
