import { describe, expect, it } from 'vitest';
import { compareRuns, regressions } from '../../../shared/compare/compare-runs.js';
import { aggregatedMetrics, comparableValue } from '../../../shared/compare/compared-metrics.js';
import { brokenEngineRuns, CORRECTNESS, NDCG, oneMetric, runFiles, type Value } from './factories.js';

const METRIC = 'retrieval/ground_truth/precision@5';

describe('compareRuns', () => {
  it('flags the engine that put its irrelevant documents first, and not the unchanged one', () => {
    // Prepare: 30 cases; "broken" drops from ndcg@10 ≈ 0.85 to ≈ 0.40 on every case, "steady" moves by noise.
    const { a, b } = brokenEngineRuns();

    // Act
    const comparison = compareRuns(a, b);

    // Assess: 30 losses of 30 is as extreme as a sign pattern gets; of 10,000 random patterns almost none
    // reaches it, so p is at its floor 1/10,001.
    const broken = comparison.engines.broken?.[NDCG];
    expect(broken).toMatchObject({ n: 30, wins: 0, losses: 30, ties: 0, significant: true, p_value: 1 / 10_001 });
    expect(broken?.a).toBeGreaterThan(0.8);
    expect(broken?.b).toBeLessThan(0.45);
    expect(broken?.delta).toBeCloseTo((broken?.b ?? 0) - (broken?.a ?? 0), 15);
    expect(broken?.delta_interval.high).toBeLessThan(0);
    const steady = comparison.engines.steady?.[NDCG];
    expect(steady?.significant).toBe(false);
    expect(steady?.p_value).toBeGreaterThan(0.3);
    // Holm over the 4 tests (2 engines × 2 metrics): the smallest p-value times 4.
    expect(comparison.adjustment).toEqual({ method: 'holm', family: 'engine_metrics', tests: 4, alpha: 0.05 });
    expect(broken?.adjusted_p_value).toBeCloseTo(4 / 10_001, 15);
    expect(regressions(comparison)).toEqual([
      { engine: 'broken', metric: NDCG, delta: broken?.delta, p_value: broken?.p_value, adjusted_p_value: broken?.adjusted_p_value },
    ]);
  });

  it('compares every metric the reports average, sorted, engines sorted', () => {
    const { a, b } = brokenEngineRuns();

    const comparison = compareRuns(a, b);

    expect(Object.keys(comparison.engines)).toEqual(['broken', 'steady']);
    expect(Object.keys(comparison.engines.steady ?? {})).toEqual([CORRECTNESS, NDCG]);
  });

  it('gives the same output, p-values included, for the same inputs whatever the order of the case lines', () => {
    // Prepare
    const { a, b } = brokenEngineRuns();
    const reversed = { report: b.report, cases: [...b.cases].reverse() };

    // Act
    const first = compareRuns(a, b);
    const again = compareRuns(a, b);
    const fromReversed = compareRuns(a, reversed);

    // Assess
    expect(JSON.stringify(again)).toBe(JSON.stringify(first));
    expect(JSON.stringify(fromReversed)).toBe(JSON.stringify(first));
  });

  it('gives a metric the same raw p-value whether it is compared alone or with others; the adjusted one grows with the family', () => {
    const { a, b } = brokenEngineRuns();

    const alone = compareRuns(a, b, { metrics: [NDCG], permutations: 2000 });
    const all = compareRuns(a, b, { permutations: 2000 });

    expect(Object.keys(alone.engines.steady ?? {})).toEqual([NDCG]);
    const { adjusted_p_value: adjustedAlone, ...rawAlone } = alone.engines.broken?.[NDCG] ?? {};
    const { adjusted_p_value: adjustedWithOthers, ...rawWithOthers } = all.engines.broken?.[NDCG] ?? {};
    expect(rawAlone).toEqual(rawWithOthers);
    // 2 tests alone (broken and steady), 4 with the correctness rating: Holm multiplies the smallest by each.
    expect(adjustedAlone).toBeCloseTo(2 / 2001, 15);
    expect(adjustedWithOthers).toBeCloseTo(4 / 2001, 15);
  });

  it('decides on the p-values adjusted across every engine × metric: Holm by default, Benjamini-Hochberg or none as asked', () => {
    // Prepare: 6 cases on 3 metrics of one engine; each metric drops on every case, so each exact p is 2/64 = 0.03125.
    const metrics = ['m1', 'm2', 'm3'].map((name) => `retrieval/ground_truth/${name}`);
    const values = (base: number) =>
      [0, 1, 2, 3, 4, 5].map((index) => Object.fromEntries(metrics.map((metric) => [metric, base + index / 100])));
    const a = runFiles(
      'run-a',
      values(0.5).map((case_, index) => ({ requestId: `q${index}`, engines: { bm25: case_ } })),
    );
    const b = runFiles(
      'run-b',
      values(0.2).map((case_, index) => ({ requestId: `q${index}`, engines: { bm25: case_ } })),
    );

    // Act
    const [holm, benjaminiHochberg, none] = (['holm', 'benjamini-hochberg', 'none'] as const).map((adjustment) =>
      compareRuns(a, b, { metrics, adjustment }),
    );

    // Assess: Holm 3 × 0.03125 = 0.09375 for the first, and no more; BH 3 × 0.03125 / 3 = 0.03125 for all three.
    for (const metric of metrics) {
      expect(holm?.engines.bm25?.[metric]).toMatchObject({ p_value: 0.03125, adjusted_p_value: 0.09375, significant: false });
      expect(benjaminiHochberg?.engines.bm25?.[metric]).toMatchObject({ adjusted_p_value: 0.03125, significant: true });
      expect(none?.engines.bm25?.[metric]).toMatchObject({ adjusted_p_value: 0.03125, significant: true });
    }
    expect(holm ? regressions(holm) : undefined).toEqual([]);
    expect(benjaminiHochberg?.adjustment).toEqual({ method: 'benjamini-hochberg', family: 'engine_metrics', tests: 3, alpha: 0.05 });
    expect(none ? regressions(none) : []).toHaveLength(3);
  });

  it('works a small comparison out by hand', () => {
    // Prepare: A = [0.25, 0.5, 0.125, 0.375], B = [0.75, 0.625, 0.5, 0.375] (exact in binary).
    const a = runFiles('run-a', oneMetric('bm25', METRIC, [0.25, 0.5, 0.125, 0.375]));
    const b = runFiles('run-b', oneMetric('bm25', METRIC, [0.75, 0.625, 0.5, 0.375]));

    // Act
    const compared = compareRuns(a, b).engines.bm25?.[METRIC];

    // Assess
    // a = 1.25/4 = 0.3125, b = 2.25/4 = 0.5625, delta = 0.25, relative = 0.25/0.3125 = 0.8.
    // Deltas [0.5, 0.125, 0.375, 0] = [4, 1, 3, 0]/8, sum 8/8. Exact: 2^4 = 16 patterns; the 4, 1 and 3
    // reach |8| only all + or all - (+,+,- gives 2; +,-,+ gives 6; +,-,- gives 0), times 2 signs of the 0: 4/16.
    // t-test: mean 2/8, s² of [4, 1, 3, 0] = (4 + 1 + 1 + 4)/3, t = 2/√(10/12) = 2.1909, ν = 3, p = 0.11616 (scipy).
    expect(compared).toEqual({
      a: 0.3125,
      b: 0.5625,
      delta: 0.25,
      relative_delta: 0.8,
      p_value: 0.25,
      t_test_p_value: expect.closeTo(0.11615752834753823, 12),
      significant: false,
      n: 4,
      wins: 3,
      losses: 0,
      ties: 1,
      delta_interval: { low: expect.any(Number), high: expect.any(Number) },
      // One test: its own family.
      adjusted_p_value: 0.25,
    });
  });

  it('compares yes/no ratings as rates (yes = 1, no = 0)', () => {
    // Prepare: A says yes on 2 of 4 cases, B on 3 of 4.
    const a = runFiles('run-a', oneMetric('bm25', CORRECTNESS, ['yes', 'yes', 'no', 'no']));
    const b = runFiles('run-b', oneMetric('bm25', CORRECTNESS, ['yes', 'yes', 'yes', 'no']));

    // Act
    const compared = compareRuns(a, b).engines.bm25?.[CORRECTNESS];

    // Assess: a = 2/4 (the report's rating/percentage), b = 3/4, delta = 0.25, relative = 0.25/0.5.
    // Deltas [0, 0, 1, 0]: every one of the 16 sign patterns reaches |1|, p = 1.
    // t-test: mean 0.25, s² = (3 · 0.0625 + 0.5625)/3 = 0.25, t = 0.25/√(0.25/4) = 1, ν = 3, p = 0.39100 (scipy).
    expect(a.report.engines.bm25?.[`${CORRECTNESS}/percentage`]).toBe(0.5);
    expect(compared).toMatchObject({ a: 0.5, b: 0.75, delta: 0.25, relative_delta: 0.5, p_value: 1, n: 4, wins: 1, losses: 0, ties: 3 });
    expect(compared?.t_test_p_value).toBeCloseTo(0.3910022189557705, 12);
  });

  it('pairs by request_id and leaves out cases in one run only and values that are not numbers', () => {
    // Prepare: A has q1-q4, B has q2-q5; q3 has no number in B (null).
    const a = runFiles('run-a', oneMetric('bm25', METRIC, [0.1, 0.2, 0.3, 0.4]));
    const b = runFiles('run-b', [
      { requestId: 'q2', engines: { bm25: { [METRIC]: 0.25 } } },
      { requestId: 'q3', engines: { bm25: { [METRIC]: null } } },
      { requestId: 'q4', engines: { bm25: { [METRIC]: 0.4 } } },
      { requestId: 'q5', engines: { bm25: { [METRIC]: 0.9 } } },
    ]);

    // Act
    const compared = compareRuns(a, b).engines.bm25?.[METRIC];

    // Assess: pairs q2 (0.2 -> 0.25) and q4 (0.4 -> 0.4): a = 0.3, b = 0.325.
    expect(compared).toMatchObject({ n: 2, wins: 1, losses: 0, ties: 1 });
    expect(compared?.a).toBeCloseTo(0.3, 15);
    expect(compared?.b).toBeCloseTo(0.325, 15);
  });

  it.each<[string, Value[], Value[]]>([
    ['no shared case', [0.5], []],
    ['texts only', ['fine'], ['fine']],
    ['NaN on one side', [0.5], [Number.NaN]],
  ])('leaves out a metric with n = 0 (%s), and its engine with it', (_described, valuesOfA, valuesOfB) => {
    const a = runFiles('run-a', oneMetric('bm25', METRIC, valuesOfA));
    const b = runFiles('run-b', valuesOfB.length === 0 ? oneMetric('dense', METRIC, [0.5]) : oneMetric('bm25', METRIC, valuesOfB));

    expect(compareRuns(a, b, { metrics: [METRIC] })).toEqual({
      adjustment: { method: 'holm', family: 'engine_metrics', tests: 0, alpha: 0.05 },
      engines: {},
    });
  });

  it('gives a relative delta of null when A averages 0', () => {
    const a = runFiles('run-a', oneMetric('bm25', METRIC, [0, 0]));
    const b = runFiles('run-b', oneMetric('bm25', METRIC, [0.5, 0.25]));

    expect(compareRuns(a, b).engines.bm25?.[METRIC]?.relative_delta).toBeNull();
  });

  it('does not call a change significant below the minimum effect', () => {
    const { a, b } = brokenEngineRuns();

    const comparison = compareRuns(a, b, { minEffect: 0.5 });

    // |delta| ≈ 0.45 < 0.5: still p ≈ 0.0001, but not significant, so no regression.
    expect(comparison.engines.broken?.[NDCG]?.p_value).toBe(1 / 10_001);
    expect(comparison.engines.broken?.[NDCG]?.significant).toBe(false);
    expect(regressions(comparison)).toEqual([]);
  });

  it('does not list significant gains as regressions', () => {
    const { a, b } = brokenEngineRuns();

    const comparison = compareRuns(b, a);

    expect(comparison.engines.broken?.[NDCG]?.significant).toBe(true);
    expect(comparison.engines.broken?.[NDCG]?.delta).toBeGreaterThan(0);
    expect(regressions(comparison)).toEqual([]);
  });

  it.each<[string, Parameters<typeof compareRuns>[2], RegExp]>([
    ['alpha 0', { alpha: 0 }, /Expected alpha to be between 0 and 1 \(exclusive\), got 0/],
    ['a negative minimum effect', { minEffect: -0.1 }, /Expected minEffect to be a finite number from 0 and up, got -0.1/],
    ['0 permutations', { permutations: 0 }, /Expected permutations to be an integer from 1 and up, got 0/],
  ])('throws on %s', (_described, options, message) => {
    const { a, b } = brokenEngineRuns();
    expect(() => compareRuns(a, b, options)).toThrow(message);
  });

  it('throws on two lines for the same engine and request_id in one run', () => {
    const a = runFiles('run-a', oneMetric('bm25', METRIC, [0.5]));
    const doubled = { report: a.report, cases: [...a.cases, ...a.cases] };

    expect(() => compareRuns(doubled, a)).toThrow(/got two for engine "bm25" and request_id "q1"/);
  });
});

describe('aggregatedMetrics', () => {
  it('takes the metrics behind /average and yes/no /rating/percentage statistics, sorted', () => {
    const { a } = brokenEngineRuns();
    const report = {
      ...a.report,
      engines: {
        x: { 'm/average': 0.5, 'm/count': 3, 'r/rating/percentage': 0.5, 'r/rating/count': 2, 'j/error_count': 1 },
        y: { 'average_precision/average': 0.2, 'z/percentage': 0.1 },
      },
    };

    expect(aggregatedMetrics([report, a.report])).toEqual(['average_precision', 'm', 'r/rating', CORRECTNESS, NDCG]);
  });
});

describe('comparableValue', () => {
  it.each<[string, Value | undefined, number | undefined]>([
    [METRIC, 0.25, 0.25],
    [METRIC, Number.POSITIVE_INFINITY, undefined],
    [METRIC, null, undefined],
    [METRIC, 'yes', undefined],
    [METRIC, [1, 0], undefined],
    [CORRECTNESS, 'yes', 1],
    [CORRECTNESS, 'no', 0],
    [CORRECTNESS, 'maybe', undefined],
    [CORRECTNESS, 4, 4],
    [METRIC, undefined, undefined],
  ])('%s: %j -> %j', (metric, value, expected) => {
    expect(comparableValue(metric, value)).toBe(expected);
  });
});
