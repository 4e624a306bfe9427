import { describe, expect, it } from 'vitest';
import { canaryDrift, identityChanged, type JudgeCanary } from '../../../shared/canaries/canary-drift.js';
import type { CanaryItem } from '../../../shared/schema/canary-report.js';

/** A yes/no judge's canary of `count` documents, the verdicts given by index. */
function yesNo(verdicts: readonly (number | null)[], answeredBy = [{ model: 'judge-model', system_fingerprint: 'fp_a' }]): JudgeCanary {
  const items: CanaryItem[] = verdicts.map((verdict, index) => ({
    request_id: `q${Math.floor(index / 4)}`,
    document: `d${index}`,
    verdict,
  }));
  return { scale: 'yes_no', items, answered_by: answeredBy };
}

describe('canaryDrift', () => {
  it("tests yes/no verdicts by McNemar's exact test of the items that flipped each way", () => {
    // Prepare: 20 items; 14 went yes → no, none the other way
    const before = yesNo(Array.from({ length: 20 }, (_, index) => (index < 16 ? 1 : 0)));
    const now = yesNo(Array.from({ length: 20 }, (_, index) => (index < 2 ? 1 : 0)));

    // Act
    const drift = canaryDrift(now, before);

    // Assess: 2 · 0.5^14
    expect(drift).toMatchObject({ test: 'mcnemar', paired: 20, changed: 14, lower: 14, higher: 0, identity_changed: false });
    expect(drift?.p_value).toBeCloseTo(0.0001220703125, 12);
  });

  it('pairs only the items judged in both runs: a failed judgment or an item new to the canary pairs with nothing', () => {
    // Prepare: item 0 failed now, item 1 failed then, item 5 is new
    const before = yesNo([1, null, 1, 1, 0]);
    const now = yesNo([null, 0, 0, 1, 0, 1]);

    // Act
    const drift = canaryDrift(now, before);

    // Assess: items 2, 3, 4 pair; item 2 went yes → no
    expect(drift).toMatchObject({ paired: 3, changed: 1, lower: 1, higher: 0, p_value: 1 });
  });

  it('tests grades by the paired sign-flip test of their differences, exactly for a few changed items', () => {
    // Prepare: 6 of 8 grades one lower, none higher: every one of the 2^6 sign patterns but the two extremes is less extreme
    const grades = (values: number[]): JudgeCanary => ({
      scale: 'graded',
      items: values.map((verdict, index) => ({ request_id: 'q', document: `d${index}`, verdict })),
      answered_by: [],
    });

    // Act
    const drift = canaryDrift(grades([2, 1, 1, 0, 2, 0, 3, 3]), grades([3, 2, 2, 1, 3, 1, 3, 3]));

    // Assess
    expect(drift).toMatchObject({ test: 'sign-flip', paired: 8, changed: 6, lower: 6, higher: 0, identity_changed: false });
    expect(drift?.p_value).toBe(2 / 64);
  });

  it('says nothing without an earlier canary of the judge, or of another scale', () => {
    const now = yesNo([1, 0]);
    expect(canaryDrift(now, undefined)).toBeUndefined();
    expect(canaryDrift(now, { ...now, scale: 'graded' })).toBeUndefined();
  });

  it('names the identities that answered the earlier run, and whether others answered now', () => {
    // Prepare
    const before = yesNo([1, 0], [{ model: 'judge-model', system_fingerprint: 'fp_a' }]);
    const now = yesNo([1, 0], [{ model: 'judge-model', system_fingerprint: 'fp_b' }]);

    // Act
    const drift = canaryDrift(now, before);

    // Assess
    expect(drift).toMatchObject({
      changed: 0,
      p_value: 1,
      identity_changed: true,
      identities_before: [{ model: 'judge-model', system_fingerprint: 'fp_a' }],
    });
  });
});

describe('identityChanged', () => {
  const a = { model: 'm', system_fingerprint: 'fp_a' };
  const b = { model: 'm', system_fingerprint: 'fp_b' };
  it.each<[string, (typeof a)[], (typeof a)[], boolean]>([
    ['the same identity', [a], [a], false],
    ['another fingerprint', [b], [a], true],
    ['one more identity now', [a, b], [a], true],
    ['one identity fewer now', [a], [a, b], true],
    ['the same identities in another order', [b, a], [a, b], false],
    ['no identity recorded then (an older report)', [a], [], false],
    ['the model named without a fingerprint, then with one', [{ model: 'm' } as typeof a], [a], true],
  ])('%s: %s', (_described, now, before, expected) => {
    expect(identityChanged(now, before)).toBe(expected);
  });
});
