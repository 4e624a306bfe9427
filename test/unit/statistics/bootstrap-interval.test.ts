import { describe, expect, it } from 'vitest';
import { percentileBootstrapInterval, percentileBootstrapIntervals } from '../../../shared/statistics/bootstrap-interval.js';
import { bootstrapMeanInterval } from '../../../shared/statistics/bootstrap-mean-interval.js';

const meanOf =
  (values: readonly number[]) =>
  (indices: Int32Array): number => {
    let total = 0;
    for (const index of indices) total += values[index] as number;
    return total / indices.length;
  };

describe('percentileBootstrapInterval', () => {
  it('draws the same resamples as the mean interval, so for the mean it gives the same bounds', () => {
    // Prepare: values whose largest magnitude is 1, so the mean interval's scaling changes no bit
    const values = Array.from({ length: 40 }, (_, index) => (index % 7) / 6);

    // Act
    const general = percentileBootstrapInterval(values.length, meanOf(values), { resamples: 500, seed: 9 });
    const mean = bootstrapMeanInterval(values, { resamples: 500, seed: 9 });

    // Assess
    expect(general).toEqual({ ok: true, value: { low: mean?.low, high: mean?.high, resamples_used: 500 } });
  });

  it('is the same for the same seed and differs for another', () => {
    const values = Array.from({ length: 30 }, (_, index) => Math.sin(index));

    const first = percentileBootstrapInterval(values.length, meanOf(values), { resamples: 200, seed: 1 });
    const again = percentileBootstrapInterval(values.length, meanOf(values), { resamples: 200, seed: 1 });
    const other = percentileBootstrapInterval(values.length, meanOf(values), { resamples: 200, seed: 2 });

    expect(again).toEqual(first);
    expect(other).not.toEqual(first);
  });

  it('leaves out the resamples where the statistic is undefined and says how many it used', () => {
    // Prepare: two units; the statistic is undefined on the resamples that draw unit 0 twice (1 in 4)
    const statistic = (indices: Int32Array): number | undefined =>
      indices[0] === 0 && indices[1] === 0 ? undefined : (indices[0] as number) + (indices[1] as number);

    // Act
    const result = percentileBootstrapInterval(2, statistic, { resamples: 400, seed: 3 });

    // Assess: the defined values are 1 (two ways) and 2, so the bounds are 1 and 2
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.value.resamples_used).toBeGreaterThan(250);
    expect(result.value.resamples_used).toBeLessThan(350);
    expect(result.value).toMatchObject({ low: 1, high: 2 });
  });

  it.each<[string, number, (indices: Int32Array) => number | undefined, RegExp]>([
    ['no unit', 0, () => 1, /nothing to resample/],
    ['a statistic undefined on every resample', 5, () => undefined, /undefined on every one of the 100 resamples/],
  ])('gives a reason instead of an interval for %s', (_described, units, statistic, reason) => {
    const result = percentileBootstrapInterval(units, statistic, { resamples: 100, seed: 0 });

    expect(result.ok).toBe(false);
    expect(result.ok ? '' : result.error).toMatch(reason);
  });

  it('throws on a NaN statistic or bad options', () => {
    expect(() => percentileBootstrapInterval(3, () => Number.NaN, { resamples: 10, seed: 0 })).toThrow(/NaN/);
    expect(() => percentileBootstrapInterval(3, () => 1, { resamples: 0, seed: 0 })).toThrow(/resamples/);
    expect(() => percentileBootstrapInterval(3, () => 1, { resamples: 10, seed: 0, level: 1 })).toThrow(/level/);
  });

  it('gives several statistics the same resamples as one call each', () => {
    // Prepare
    const values = Array.from({ length: 25 }, (_, index) => (index * 7) % 11);
    const squares = values.map((value) => value * value);
    const options = { resamples: 300, seed: 12 };

    // Act
    const together = percentileBootstrapIntervals(
      values.length,
      2,
      (indices) => [meanOf(values)(indices), meanOf(squares)(indices)],
      options,
    );

    // Assess
    expect(together).toEqual([
      percentileBootstrapInterval(values.length, meanOf(values), options),
      percentileBootstrapInterval(values.length, meanOf(squares), options),
    ]);
  });
});
