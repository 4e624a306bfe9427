import { describe, expect, it } from 'vitest';
import type { JudgmentOutcome } from '../../../shared/judges/judgment-outcome.js';
import { combineVerdicts, medianOf } from '../../../shared/judges/ensemble/combine-verdicts.js';
import type { Verdict } from '../../../shared/judges/judge-definition.js';
import { repeatedMetrics } from '../../../shared/scoring/repeat-metrics.js';
import { findJudge } from '../../../shared/judges/catalog/index.js';
import { GRADE_0_3, ratingValue, type Rating } from '../../../shared/judges/scale.js';

const verdict = (rating: Rating, value = rating === 'yes' ? 1 : rating === 'no' ? 0 : ratingValue(GRADE_0_3, rating)): Verdict => ({
  rating,
  value,
  rationale: `said ${String(rating)}`,
});
const ok = (rating: Rating): JudgmentOutcome => ({ ok: true, value: verdict(rating) });
const gradeValue = (rating: number) => ratingValue(GRADE_0_3, rating);

describe('combineVerdicts', () => {
  it.each<[string, Rating[], Rating, number]>([
    ['a clear majority', ['yes', 'yes', 'no'], 'yes', 2 / 3],
    ['a unanimous no', ['no', 'no', 'no'], 'no', 1],
    ['a tie, which is no', ['yes', 'no'], 'no', 0.5],
    ['a tie of four', ['yes', 'no', 'yes', 'no'], 'no', 0.5],
  ])('majority of %s', (_described, ratings, expected, agreement) => {
    // Act
    const combined = combineVerdicts(
      'majority',
      ratings.map((_, index) => `m${index}`),
      ratings.map((rating) => verdict(rating)),
      gradeValue,
    );

    // Assess
    expect(combined.verdict.rating).toBe(expected);
    expect(combined.agreement).toBe(agreement);
    expect(combined.verdict.rationale).toBe(`majority of ${ratings.map((rating, index) => `m${index}: ${String(rating)}`).join(', ')}`);
  });

  it.each<['mean' | 'median', number[], number, number]>([
    // mean of 0, 2, 3 = 5/3; spread on values: 3/3 - 0/3 = 1
    ['mean', [0, 2, 3], 5 / 3, 1],
    // median of 1, 2, 2, 3: the middle two are 2 and 2
    ['median', [1, 2, 3, 2], 2, 2 / 3],
    // median of an even count between two grades: (1 + 2) / 2
    ['median', [2, 1], 1.5, 1 / 3],
  ])('%s of grades %j is %d, spread %d', (rule, grades, rating, spread) => {
    // Act
    const combined = combineVerdicts(
      rule,
      grades.map((_, index) => `m${index}`),
      grades.map((grade) => verdict(grade)),
      gradeValue,
    );

    // Assess
    expect(combined.verdict.rating).toBeCloseTo(rating, 12);
    expect(combined.verdict.value).toBeCloseTo(rating / 3, 12);
    expect(combined.spread).toBeCloseTo(spread, 12);
  });

  it('takes the median of an odd count as its middle value', () => {
    expect(medianOf([5, 1, 3])).toBe(3);
  });
});

describe('repeatedMetrics of a chunk judge', () => {
  const chunkRelevance = findJudge('chunk_relevance');
  if (chunkRelevance === undefined) throw new Error('chunk_relevance is a built-in judge');
  const prefix = 'retrieval/llm_judged/chunk_relevance';

  it('reports each sample, the mean of each derived metric and the spread of the precision', () => {
    // Act: sample 1 [yes, no] -> precision 1/2, AP 1; sample 2 [yes, yes] -> precision 1, AP 1
    const metrics = repeatedMetrics(prefix, chunkRelevance, [{ chunks: [ok('yes'), ok('no')] }, { chunks: [ok('yes'), ok('yes')] }], [5]);

    // Assess
    expect(metrics).toEqual({
      [`${prefix}/sample_1/ratings`]: ['yes', 'no'],
      [`${prefix}/sample_1/precision`]: 0.5,
      [`${prefix}/sample_1/average_precision`]: 1,
      [`${prefix}/sample_2/ratings`]: ['yes', 'yes'],
      [`${prefix}/sample_2/precision`]: 1,
      [`${prefix}/sample_2/average_precision`]: 1,
      [`${prefix}/precision`]: 0.75,
      [`${prefix}/average_precision`]: 1,
      [`${prefix}/spread`]: 0.5,
      [`${prefix}/error_message`]: null,
    });
  });

  it('leaves out the means and the spread when a sample failed, and says how many did', () => {
    // Act
    const metrics = repeatedMetrics(
      prefix,
      chunkRelevance,
      [{ chunks: [ok('yes')] }, { chunks: [{ ok: false, error: { message: 'timed out', transient: true } }] }],
      [5],
    );

    // Assess
    expect(metrics[`${prefix}/error_message`]).toBe('1 of 2 samples could not be judged: timed out');
    expect(metrics[`${prefix}/precision`]).toBeUndefined();
    expect(metrics[`${prefix}/spread`]).toBeUndefined();
    expect(metrics[`${prefix}/sample_1/precision`]).toBe(1);
  });
});
