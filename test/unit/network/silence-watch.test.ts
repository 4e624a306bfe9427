import { describe, expect, it } from 'vitest';
import { HeldVerdict, SilenceWatch } from '../../../shared/network/silence-watch.js';

/** When a server that never answered is silent, and how long a verdict on it holds. */
describe('SilenceWatch', () => {
  it('takes one silent attempt, and the attempts sent before it ended, for no verdict; an attempt sent after it, silent too, for one', () => {
    // Prepare: attempts sent at 0 and 10; the first ends in silence at 100
    let time = 100;
    const watch = new SilenceWatch(() => time);

    // Act
    const first = watch.noAnswer(0);
    time = 110;
    const sameRound = watch.noAnswer(10);
    time = 300;
    const next = watch.noAnswer(150);

    // Assess
    expect([first, sameRound, next]).toEqual([false, false, true]);
  });

  it('starts again after a verdict: two more silent attempts make the next', () => {
    let time = 100;
    const watch = new SilenceWatch(() => time);
    watch.noAnswer(0);
    time = 200;
    expect(watch.noAnswer(150)).toBe(true);

    time = 300;
    const afterVerdict = watch.noAnswer(250);
    time = 400;
    const again = watch.noAnswer(350);

    expect([afterVerdict, again]).toEqual([false, true]);
  });

  it('never finds a server that answered silent', () => {
    let time = 100;
    const watch = new SilenceWatch(() => time);
    watch.noAnswer(0);
    watch.heardFrom();

    time = 500;
    const later = [watch.noAnswer(200), watch.noAnswer(300), watch.noAnswer(400)];

    expect(later).toEqual([false, false, false]);
  });
});

describe('HeldVerdict', () => {
  it('holds a verdict for its time, then none; an answer clears it at once', () => {
    let time = 0;
    const verdict = new HeldVerdict(() => time, 1_000);
    verdict.hold('silent');

    time = 999;
    const held = verdict.current;
    time = 1_000;
    const over = verdict.current;
    verdict.hold('silent again');
    verdict.clear();

    expect([held, over, verdict.current]).toEqual(['silent', undefined, undefined]);
  });
});
