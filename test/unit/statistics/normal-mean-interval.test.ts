import { describe, expect, it } from 'vitest';
import { BOOTSTRAP_LIMIT, meanInterval } from '../../../shared/report/metric-statistics.js';
import { bootstrapMeanInterval } from '../../../shared/statistics/bootstrap-mean-interval.js';
import { normalMeanInterval } from '../../../shared/statistics/normal-mean-interval.js';
import { seededRandom } from '../../../shared/statistics/seeded-random.js';

/** n seeded values: a skewed metric (squares of uniforms, as NDCG-like scores bunch near 0) or yes/no verdicts at 30%. */
function sample(kind: 'skewed' | 'verdicts', count: number, seed = 11): number[] {
  const random = seededRandom(seed);
  return Array.from({ length: count }, () => {
    const uniform = random.nextUint32() / 2 ** 32;
    return kind === 'skewed' ? uniform * uniform : uniform < 0.3 ? 1 : 0;
  });
}

describe('normalMeanInterval', () => {
  it.each(['skewed', 'verdicts'] as const)('agrees with the 1,000-resample bootstrap at the switch size (%s values)', (kind) => {
    // Prepare
    const values = sample(kind, BOOTSTRAP_LIMIT);

    // Act
    const normal = normalMeanInterval(values);
    const bootstrap = bootstrapMeanInterval(values, { resamples: 1000, seed: 20_261_122, level: 0.95 });

    // Assess: both bounds within 5% of the interval's width (the bootstrap's own resampling noise is about that)
    if (normal === undefined || bootstrap === undefined) throw new Error('expected both intervals');
    const width = bootstrap.high - bootstrap.low;
    expect(Math.abs(normal.low - bootstrap.low)).toBeLessThan(0.05 * width);
    expect(Math.abs(normal.high - bootstrap.high)).toBeLessThan(0.05 * width);
  });

  it('is mean ± 1.96 s/√n', () => {
    // Prepare: mean 2.5, s² = ((1.5² + 0.5²) × 2) / 3 = 5/3
    const values = [1, 2, 3, 4];

    // Act
    const interval = normalMeanInterval(values);

    // Assess
    const halfWidth = 1.959963984540054 * Math.sqrt(5 / 3 / 4);
    expect(interval?.low).toBeCloseTo(2.5 - halfWidth, 12);
    expect(interval?.high).toBeCloseTo(2.5 + halfWidth, 12);
  });

  it.each([
    ['no value', [], undefined],
    ['one value', [0.4], { low: 0.4, high: 0.4 }],
    ['equal values', [0.2, 0.2, 0.2], { low: 0.2, high: 0.2 }],
    ['all zero', [0, 0], { low: 0, high: 0 }],
    ['an interval wider than the values', [0, 1], { low: 0, high: 1 }],
  ])('handles %s', (_name, values, expected) => {
    expect(normalMeanInterval(values)).toEqual(expected);
  });
});

describe('meanInterval', () => {
  it('bootstraps up to BOOTSTRAP_LIMIT values and takes the normal approximation above', () => {
    // Prepare
    const atLimit = sample('skewed', BOOTSTRAP_LIMIT);
    const aboveLimit = sample('skewed', BOOTSTRAP_LIMIT + 1);

    // Act / Assess
    expect(meanInterval(atLimit)).toEqual(bootstrapMeanInterval(atLimit, { resamples: 1000, seed: 20_261_122, level: 0.95 }));
    expect(meanInterval(aboveLimit)).toEqual(normalMeanInterval(aboveLimit));
    expect(meanInterval(aboveLimit)).not.toEqual(bootstrapMeanInterval(aboveLimit, { resamples: 1000, seed: 20_261_122, level: 0.95 }));
  });
});
