import { describe, expect, it } from 'vitest';
import { bootstrapMeanInterval } from '../../../shared/statistics/bootstrap-mean-interval.js';
import { seededRandom } from '../../../shared/statistics/seeded-random.js';
import { typeSevenQuantile } from '../../../shared/statistics/quantile.js';
import { scaleToUnit } from '../../../shared/statistics/unit-scale.js';

describe('bootstrapMeanInterval', () => {
  it.each<[string, number[], ReturnType<typeof bootstrapMeanInterval>]>([
    ['no value', [], undefined],
    ['one value', [0.7], { low: 0.7, high: 0.7 }],
    ['every value the same', [0.3, 0.3, 0.3], { low: 0.3, high: 0.3 }],
    ['every value 0', [0, 0], { low: 0, high: 0 }],
  ])('gives %s', (_described, values, expected) => {
    expect(bootstrapMeanInterval(values, { seed: 1 })).toEqual(expected);
  });

  it('takes type-7 quantiles of the resample means', () => {
    // Prepare: values [0, 10], B = 3 resamples, level 0.5 (q = 0.25 and 0.75). Resample k takes the
    // indices of draws 2k and 2k + 1 below 2 from the same seeded stream; its mean is 0, 5 or 10.
    // Positions: (3 - 1) · 0.25 = 0.5 and (3 - 1) · 0.75 = 1.5, so with the sorted means m1 <= m2 <= m3
    // low = (m1 + m2) / 2 and high = (m2 + m3) / 2.
    const values = [0, 10];
    const stream = seededRandom(3);
    const means = [0, 1, 2]
      .map(() => ((values[stream.nextBelow(2)] as number) + (values[stream.nextBelow(2)] as number)) / 2)
      .sort((left, right) => left - right);
    const [first, second, third] = means as [number, number, number];

    // Act
    const interval = bootstrapMeanInterval(values, { seed: 3, resamples: 3, level: 0.5 });

    // Assess
    expect(interval).toEqual({ low: (first + second) / 2, high: (second + third) / 2 });
  });

  it.each([
    ['lists of one length, whose draws are drawn once and shared', [100, 100, 37, 100], 1000],
    ['lists too long to keep their draws (over 2^20 indices)', [1100, 1100], 1000],
  ])('gives %s the interval of drawing every resample from its own stream', (_described, lengths, resamples) => {
    // Prepare: the reference draws resample after resample from a fresh stream of the seed, as the method is defined
    const reference = (values: number[], seed: number): { low: number; high: number } => {
      const { values: scaled, scale } = scaleToUnit(values, 'values');
      const stream = seededRandom(seed);
      const means = Float64Array.from({ length: resamples }, () => {
        let total = 0;
        for (let index = 0; index < values.length; index++) total += scaled[stream.nextBelow(values.length)] as number;
        return total / values.length;
      }).sort();
      const clamp = (bound: number) => Math.min(Math.max(...values), Math.max(Math.min(...values), bound * scale));
      const tail = (1 - 0.95) / 2;
      return { low: clamp(typeSevenQuantile(means, tail)), high: clamp(typeSevenQuantile(means, 1 - tail)) };
    };
    const lists = lengths.map((length, list) => Array.from({ length }, (_, index) => Math.abs(Math.sin(index * 7 + list)) * (list + 1)));

    // Act: each list twice, the seed alternating, so a set of draws is reused by other lists and other seeds come between
    const intervals = [...lists, ...lists].map((values, index) => bootstrapMeanInterval(values, { seed: 20 + (index % 2), resamples }));

    // Assess
    expect(intervals).toEqual([...lists, ...lists].map((values, index) => reference(values, 20 + (index % 2))));
  });

  it('is the same for the same seed and lies within [min, max] around the mean', () => {
    const values = Array.from({ length: 50 }, (_, index) => Math.cos(index) * 0.3 + 0.5);
    const mean = values.reduce((total, value) => total + value, 0) / values.length;

    const first = bootstrapMeanInterval(values, { seed: 11 });
    const again = bootstrapMeanInterval(values, { seed: 11 });

    expect(again).toEqual(first);
    expect(first?.low).toBeLessThan(mean);
    expect(first?.high).toBeGreaterThan(mean);
    expect(first?.low).toBeGreaterThanOrEqual(Math.min(...values));
    expect(first?.high).toBeLessThanOrEqual(Math.max(...values));
  });

  it('has a width close to the normal theory one: 2 · 1.96 · s / √n', () => {
    // Prepare: 400 uniform values on [0, 1): s ≈ √(1/12) = 0.2887, so the 95% interval is about
    // 2 · 1.96 · 0.2887 / 20 = 0.0566 wide.
    const random = seededRandom(5);
    const values = Array.from({ length: 400 }, () => random.nextUint32() / 2 ** 32);

    // Act
    const interval = bootstrapMeanInterval(values, { seed: 5 });

    // Assess
    const width = (interval?.high ?? 0) - (interval?.low ?? 0);
    expect(width).toBeGreaterThan(0.05);
    expect(width).toBeLessThan(0.063);
  });

  it('covers the true mean in about 95% of samples', () => {
    // Prepare: 200 samples of 30 uniform values (true mean 1/2), 400 resamples each to stay fast.
    // With true coverage 0.95 the count of covering intervals has a standard deviation of √(200 · 0.95 · 0.05) = 3.1;
    // percentile intervals at n = 30 run slightly narrow, so anything from 176 (88%) up passes.
    const random = seededRandom(99);
    let covered = 0;

    // Act
    for (let sample = 0; sample < 200; sample++) {
      const values = Array.from({ length: 30 }, () => random.nextUint32() / 2 ** 32);
      const interval = bootstrapMeanInterval(values, { seed: sample, resamples: 400 });
      if (interval !== undefined && interval.low <= 0.5 && 0.5 <= interval.high) covered++;
    }

    // Assess
    expect(covered).toBeGreaterThanOrEqual(176);
    expect(covered).toBeLessThanOrEqual(199);
  });

  it('narrows with a lower level', () => {
    const values = [0.1, 0.4, 0.35, 0.8, 0.2, 0.65, 0.5];

    const wide = bootstrapMeanInterval(values, { seed: 1, level: 0.99 });
    const narrow = bootstrapMeanInterval(values, { seed: 1, level: 0.5 });

    expect(narrow?.low).toBeGreaterThan(wide?.low ?? Number.NaN);
    expect(narrow?.high).toBeLessThan(wide?.high ?? Number.NaN);
  });

  it.each<[string, Parameters<typeof bootstrapMeanInterval>[1], RegExp]>([
    ['a level of 1', { seed: 1, level: 1 }, /Expected level to be between 0 and 1 \(exclusive\), got 1/],
    ['0 resamples', { seed: 1, resamples: 0 }, /Expected resamples to be an integer from 1 and up, got 0/],
    ['a fractional seed', { seed: 1.5 }, /Expected the seed to be an integer, got 1.5/],
  ])('throws on %s', (_described, options, message) => {
    expect(() => bootstrapMeanInterval([1, 2, 3], options)).toThrow(message);
  });
});
