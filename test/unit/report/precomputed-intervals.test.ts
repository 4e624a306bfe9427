import { describe, expect, it } from 'vitest';
import { withPrecomputedIntervals } from '../../../shared/report/precomputed-intervals.js';
import { BOOTSTRAP_LIMIT, meanInterval, type IntervalSource } from '../../../shared/report/metric-statistics.js';

const large = Array.from({ length: BOOTSTRAP_LIMIT + 1 }, (_, index) => (index % 10) / 10);
const lists: number[][] = [[0.2, 0.4, 1], [0.5], large, [0.1, 0.9, 0.5, 0.3], []];
const build = (intervalOf: IntervalSource) => lists.map((values) => intervalOf(values));

describe('withPrecomputedIntervals', () => {
  it('gives what the build gives with meanInterval, sending only the bootstraps to the batch', async () => {
    // Prepare
    const sent: number[][] = [];

    // Act
    const batched = await withPrecomputedIntervals(build, async (batch) => {
      sent.push(batch.map((values) => values.length));
      return batch.map((values) => meanInterval(values));
    });

    // Assess: one batch, of the two lists with two to BOOTSTRAP_LIMIT values; the rest computed in place
    expect(batched).toEqual(build(meanInterval));
    expect(sent).toEqual([[3, 4]]);
  });

  it('throws when the batch answers for fewer lists than it was given', async () => {
    await expect(withPrecomputedIntervals(build, async (batch) => batch.slice(1).map((values) => meanInterval(values)))).rejects.toThrow(
      'Expected 2 intervals from compute, got 1',
    );
  });

  it('throws when the second pass asks for other lists than the first', async () => {
    // Prepare: a build that asks about one more list each time it runs
    let runs = 0;
    const growing = (intervalOf: IntervalSource) => lists.slice(0, 2 + runs++).map((values) => intervalOf(values));

    // Act, Assess
    await expect(withPrecomputedIntervals(growing, async (batch) => batch.map((values) => meanInterval(values)))).rejects.toThrow(
      /^The second pass asked for interval 3 of/,
    );
  });
});
