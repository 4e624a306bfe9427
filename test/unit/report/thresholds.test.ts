import { describe, expect, it } from 'vitest';
import { checkThresholds, linePasses, thresholdMetrics } from '../../../shared/report/thresholds.js';
import { thresholdsSchema } from '../../../shared/schema/thresholds.js';

const CORRECTNESS = 'response/llm_judged/correctness/rating';
const PRECISION = 'retrieval/llm_judged/chunk_relevance/precision';
const LATENCY = 'engine/latency_ms';
const NDCG = 'retrieval/ground_truth/ndcg@10';

const thresholds = thresholdsSchema.parse({
  [CORRECTNESS]: 'yes',
  [PRECISION]: 0.7,
  [LATENCY]: { max: 500 },
  [NDCG]: { min: 0.5, max: 1 },
});

describe('thresholds', () => {
  it.each([
    [
      'every condition met',
      { [CORRECTNESS]: 'yes', [PRECISION]: 0.7, [LATENCY]: 500, [NDCG]: 0.5 },
      { [CORRECTNESS]: 'pass', [PRECISION]: 'pass', [LATENCY]: 'pass', [NDCG]: 'pass' },
      true,
    ],
    ['a "no" where "yes" is asked', { [CORRECTNESS]: 'no', [PRECISION]: 0.9 }, { [CORRECTNESS]: 'fail', [PRECISION]: 'pass' }, false],
    ['precision just under', { [PRECISION]: 0.69 }, { [PRECISION]: 'fail' }, false],
    ['a latency over its maximum', { [LATENCY]: 501 }, { [LATENCY]: 'fail' }, false],
    ['a judge that failed (null)', { [CORRECTNESS]: null }, { [CORRECTNESS]: 'fail' }, false],
    ['no labels, so no ground-truth metric', { [CORRECTNESS]: 'yes' }, { [CORRECTNESS]: 'pass' }, true],
    ['no metric a condition names', { other: 1 }, {}, undefined],
  ] as const)('%s', (_, metrics, checks, passed) => {
    const outcome = checkThresholds(metrics, thresholds);

    expect(outcome).toEqual(checks);
    expect(linePasses(outcome)).toBe(passed);
  });

  it('rejects a bound-less object and a verdict other than yes or no', () => {
    expect(thresholdsSchema.safeParse({ [LATENCY]: {} }).success).toBe(false);
    expect(thresholdsSchema.safeParse({ [CORRECTNESS]: 'maybe' }).success).toBe(false);
  });

  it.each([
    ['response/llm_judged/safety/rating/average', 'response/llm_judged/safety/rating'],
    ['response/llm_judged/correctness/rating/percentage', 'response/llm_judged/correctness/rating'],
    ['retrieval/ground_truth/ndcg@10/average/ci_low', 'retrieval/ground_truth/ndcg@10'],
  ])('refuses %s, a statistic no case has, and names the per-case metric', (statistic, perCase) => {
    // Act
    const parsed = thresholdsSchema.safeParse({ [statistic]: 0.9 });

    // Assess
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.path).toEqual([statistic]);
    expect(parsed.error?.issues[0]?.message).toContain(`write "${perCase}"`);
  });

  it('accepts per-case metrics whose names only contain average, such as average_precision', () => {
    expect(thresholdsSchema.safeParse({ 'retrieval/llm_judged/chunk_relevance/average_precision': 0.5 }).success).toBe(true);
  });

  it("names each check and the line's pass as case metrics", () => {
    expect(thresholdMetrics({ [CORRECTNESS]: 'yes', [PRECISION]: 0.5 }, thresholds)).toEqual({
      [`thresholds/${CORRECTNESS}/check`]: 'pass',
      [`thresholds/${PRECISION}/check`]: 'fail',
      'thresholds/pass': 0,
    });
    expect(thresholdMetrics({ other: 1 }, thresholds)).toEqual({});
  });
});
