import { describe, expect, it } from 'vitest';
import { simulateNights, type CanaryModel } from '../../support/simulated-canary.js';

/**
 * The judge-change tests over many simulated nights (simulated-canary.ts): a
 * canary of 120 documents, a judge that gets 10% of them wrong every night
 * and turns 5% more each night, each night compared with its suite's first
 * (the baseline). The nights without a change must flag at most one in
 * twenty (the level); the changed ones must be caught. The nights of one
 * baseline share its own noise, so their flags come together: the rate is
 * taken over ten suites, each with its own baseline. npm run bench:canaries
 * measures more nights and settings (docs/benchmarks.md).
 */
const MODEL: CanaryModel = { requests: 30, mistakes: 0.1, noise: 0.05 };

function overSuites(alpha: number, changeShare: number, changeEvery: number) {
  const totals = { falseFlags: 0, unchangedNights: 0, caught: 0, changedNights: 0 };
  for (let seed = 1; seed <= 10; seed++) {
    const nights = simulateNights(MODEL, { nights: 20, changeShare, changeEvery, alpha, seed });
    for (const key of Object.keys(totals) as (keyof typeof totals)[]) totals[key] += nights[key];
  }
  return totals;
}

describe('the judge-change tests over simulated nights', () => {
  it('flag at most one unchanged night in twenty, and catch a judge that turned 40% of its yes verdicts', () => {
    // Act: every fifth night changed
    const nights = overSuites(0.05, 0.4, 5);

    // Assess
    expect(nights.unchangedNights).toBe(160);
    expect(nights.falseFlags / nights.unchangedNights).toBeLessThanOrEqual(1 / 20);
    expect(nights.changedNights).toBe(40);
    expect(nights.caught).toBe(40);
  });

  it('flag more unchanged nights at a looser level: the level is what holds them back', () => {
    // Act
    const loose = overSuites(0.5, 0, 0);
    const strict = overSuites(0.05, 0, 0);

    // Assess
    expect(loose.falseFlags).toBeGreaterThan(strict.falseFlags);
    expect(strict.falseFlags / strict.unchangedNights).toBeLessThanOrEqual(1 / 20);
  });
});
