import { describe, expect, it } from 'vitest';
import { scoreText } from '../../../../shared/judges/lexical/score-text.js';

describe('scoreText', () => {
  it.each<[number, number[], string]>([
    [0.7142857, [0.5], '0.71'],
    [0.5, [0.5], '0.50'],
    [0, [0.5], '0.00'],
    [1, [0.2, 0.5, 0.8], '1.00'],
    // "0.50" would read as reaching 0.5
    [0.4996, [0.5], '0.4996'],
    // "0.80" would read as grade 3
    [0.7999, [0.2, 0.5, 0.8], '0.7999'],
    // rounding down never crosses a threshold from above
    [0.8004, [0.2, 0.5, 0.8], '0.80'],
    [0.5 - Number.EPSILON, [0.5], '0.4999999999999998'],
  ])('shows %f against %j as %s', (score, thresholds, expected) => {
    expect(scoreText(score, thresholds)).toBe(expected);
  });
});
