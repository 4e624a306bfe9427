import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../../shared/statistics/seeded-random.js';
import { simulatedNight, type PlantedDrop } from '../../support/simulated-sweeps.js';

/**
 * The regression gate on seeded simulated sweeps (test/support/simulated-sweeps.ts),
 * a small version of bench/adjusted-gate.bench.ts: 4 engines × 3 metrics = 12
 * tests over 30 cases a night, 60 nights. Sampling noise over 60 nights is
 * about 3 points on a rate of 5%, so the bound held here is 10%; the bench
 * measures the rate over more nights (docs/benchmarks.md).
 */
const SHAPE = { engines: 4, metrics: 3, cases: 30 };
const NIGHTS = 60;
const OPTIONS = { methods: ['holm', 'none'] as const, permutations: 1000 };

function tally(
  planted: readonly PlantedDrop[],
  seed: number,
): { holm: { alarms: number; found: number }; none: { alarms: number; found: number } } {
  const random = seededRandom(seed);
  const counts = { holm: { alarms: 0, found: 0 }, none: { alarms: 0, found: 0 } };
  for (let night = 0; night < NIGHTS; night++) {
    const outcomes = simulatedNight(SHAPE, planted, random, OPTIONS);
    for (const method of OPTIONS.methods) {
      counts[method].alarms += Number(outcomes[method].falseAlarms > 0);
      counts[method].found += outcomes[method].found;
    }
  }
  return counts;
}

describe('the regression gate on simulated sweeps', () => {
  it("fires on at most 10% of 60 nights with no true difference under Holm's method, where unadjusted p-values fire on many more", () => {
    // Act
    const { holm, none } = tally([], 7);

    // Assess
    expect(holm.alarms / NIGHTS).toBeLessThanOrEqual(0.1);
    expect(none.alarms).toBeGreaterThanOrEqual(3 * Math.max(1, holm.alarms));
  });

  it('still finds 90% of two planted drops of 0.1 under Holm, flagging an unchanged metric on at most 10% of the nights', () => {
    // Prepare
    const planted = [
      { engine: 0, metric: 0, drop: 0.1 },
      { engine: 2, metric: 1, drop: 0.1 },
    ];

    // Act
    const { holm } = tally(planted, 8);

    // Assess
    expect(holm.found / (NIGHTS * planted.length)).toBeGreaterThanOrEqual(0.9);
    expect(holm.alarms / NIGHTS).toBeLessThanOrEqual(0.1);
  });
});
