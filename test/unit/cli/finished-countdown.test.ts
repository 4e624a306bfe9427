import { describe, expect, it } from 'vitest';
import { FinishedCountdown } from '../../../cli/run/finished-countdown.js';

function endCases(countdown: FinishedCountdown, count: number): void {
  for (let index = 0; index < count; index++) countdown.caseEnded();
}

describe('FinishedCountdown', () => {
  it('makes the first check due once as many cases ended as the drive expects', () => {
    // Prepare
    const countdown = new FinishedCountdown(3);

    // Act
    endCases(countdown, 2);
    const beforeLast = countdown.checkDue;
    endCases(countdown, 1);

    // Assess
    expect(beforeLast).toBe(false);
    expect(countdown.checkDue).toBe(true);
  });

  it('after a check that finds cases unfinished, makes the next due once that many more ended', () => {
    // Prepare: 3 expected, but one case ended twice (delivered again), so the check came early and found 1 unfinished
    const countdown = new FinishedCountdown(3);
    endCases(countdown, 3);

    // Act
    countdown.checked(1);
    const beforeLast = countdown.checkDue;
    endCases(countdown, 1);

    // Assess
    expect(beforeLast).toBe(false);
    expect(countdown.checkDue).toBe(true);
  });

  it('after an idle check that finds fewer unfinished than this drive still waits for (another process judged some), shortens the wait', () => {
    // Prepare: 10 expected, 2 ended here, and the store says only 3 are unfinished
    const countdown = new FinishedCountdown(10);
    endCases(countdown, 2);

    // Act
    countdown.checked(3);
    endCases(countdown, 3);

    // Assess
    expect(countdown.checkDue).toBe(true);
  });

  it('is due at once for a drive that expects no case', () => {
    expect(new FinishedCountdown(0).checkDue).toBe(true);
  });
});
