import { describe, expect, it } from 'vitest';
import { compareRuns, EXACT_COMPARISON_LIMIT } from '../../../shared/compare/compare-runs.js';
import { compareText } from '../../../shared/report/ordering.js';
import { bootstrapMeanInterval } from '../../../shared/statistics/bootstrap-mean-interval.js';
import { criticalValue, largeSamplePairedStatistics } from '../../../shared/statistics/large-sample-paired.js';
import { pairedRandomizationTest } from '../../../shared/statistics/paired-randomization-test.js';
import { seededRandom } from '../../../shared/statistics/seeded-random.js';
import type { CaseLine, Report } from '../../../shared/schema/report.js';

/** n seeded deltas of two NDCG-like metrics, b a little better than a on average. */
function deltas(count: number, shift: number): number[] {
  const random = seededRandom(5);
  const uniform = (): number => random.nextUint32() / 2 ** 32;
  return Array.from({ length: count }, () => Math.min(1, uniform() + shift) - uniform());
}

describe('largeSamplePairedStatistics', () => {
  it.each([
    ['no real difference', 0],
    ['a small difference', 0.004],
  ])('agrees with the randomization test and the bootstrap at the switch size (%s)', (_name, shift) => {
    // Prepare
    const values = deltas(EXACT_COMPARISON_LIMIT, shift);

    // Act
    const large = largeSamplePairedStatistics(values, 0.95);
    const pValue = pairedRandomizationTest(values, { permutations: 10_000, seed: 42 });
    const bootstrap = bootstrapMeanInterval(values, { seed: 42, level: 0.95 });

    // Assess: p-values within the sampled test's own noise (±0.01 at 10,000 flips), bounds within 5% of the width
    if (bootstrap === undefined) throw new Error('expected an interval');
    expect(Math.abs(large.pValue - pValue)).toBeLessThan(0.015);
    const width = bootstrap.high - bootstrap.low;
    expect(Math.abs(large.interval.low - bootstrap.low)).toBeLessThan(0.05 * width);
    expect(Math.abs(large.interval.high - bootstrap.high)).toBeLessThan(0.05 * width);
  });

  it.each([
    [0.95, 1e6, 1.959964],
    [0.99, 1e6, 2.575834],
    [0.95, 10, 2.228139],
  ])('has the critical value of Student t at level %s with %s degrees of freedom', (level, degreesOfFreedom, expected) => {
    expect(criticalValue(level, degreesOfFreedom)).toBeCloseTo(expected, 5);
  });

  it('gives p = 1 and an empty interval when every delta is 0', () => {
    expect(largeSamplePairedStatistics([0, 0, 0], 0.95)).toEqual({ pValue: 1, interval: { low: 0, high: 0 } });
  });
});

describe('compareRuns above the exact limit', () => {
  it('takes the large-sample statistics, and counts wins, losses and ties exactly', () => {
    // Prepare: two runs of EXACT_COMPARISON_LIMIT + 1 cases on one metric
    const values = deltas(EXACT_COMPARISON_LIMIT + 1, 0.01);
    const lines = (run: 'a' | 'b'): CaseLine[] =>
      values.map((delta, index) => ({
        case_id: `c${index}`,
        request_id: `q${index}`,
        engine: 'bm25',
        metrics: { 'x/ndcg': run === 'a' ? 0.5 : 0.5 + delta },
      }));
    const report = { engines: {} } as unknown as Report;

    // Act
    const compared = compareRuns({ report, cases: lines('a') }, { report, cases: lines('b') }, { metrics: ['x/ndcg'] }).engines.bm25?.[
      'x/ndcg'
    ];

    // Assess
    // Pairs come in request_id order (q0, q1, q10, ...), and so are the deltas summed.
    const order = values.map((_, index) => index).sort((left, right) => compareText(`q${left}`, `q${right}`));
    const paired = order.map((index) => 0.5 + (values[index] as number) - 0.5);
    const expected = largeSamplePairedStatistics(paired, 0.95);
    expect(compared?.p_value).toBe(expected.pValue);
    expect(compared?.delta_interval).toEqual(expected.interval);
    expect(compared?.n).toBe(EXACT_COMPARISON_LIMIT + 1);
    expect((compared?.wins ?? 0) + (compared?.losses ?? 0) + (compared?.ties ?? 0)).toBe(EXACT_COMPARISON_LIMIT + 1);
  });
});
