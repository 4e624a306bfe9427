import { describe, expect, it } from 'vitest';
import { engineCaseCount } from '../../../shared/report/engine-cases.js';

const CORRECTNESS = 'response/llm_judged/correctness';

describe("an engine's case count, read from its statistics", () => {
  it.each<[string, Record<string, number>, number]>([
    ['no statistic at all: every evaluated case', {}, 12],
    [
      'ground truth alone, on the labelled cases: every evaluated case, as nothing says otherwise',
      { 'retrieval/ground_truth/ndcg@10/count': 4 },
      12,
    ],
    [
      "a judge's rated cases plus those its judgment failed on",
      { 'retrieval/ground_truth/ndcg@10/count': 4, [`${CORRECTNESS}/rating/count`]: 7, [`${CORRECTNESS}/error_count`]: 2 },
      9,
    ],
    [
      'the labelled cases, when a judge was asked about fewer (a case without the input it needs)',
      { 'retrieval/ground_truth/ndcg@10/count': 10, [`${CORRECTNESS}/rating/count`]: 7, [`${CORRECTNESS}/error_count`]: 0 },
      10,
    ],
    ["a live engine's answered cases plus its failures", { 'engine/latency_ms/count': 5, 'engine/error_count': 1 }, 6],
    [
      // A repeated judge's sample 1 answered on 8 cases while a later sample failed on 2 of them: the samples hold no
      // error of their own, so 8 + 2 would count those 2 twice; the judge's mean over the samples (6 + 2) is exact.
      "a repeated judge's samples, without its errors",
      { [`${CORRECTNESS}/sample_1/rating/count`]: 8, [`${CORRECTNESS}/rating/count`]: 6, [`${CORRECTNESS}/error_count`]: 2 },
      8,
    ],
    [
      "a judge's twin of a ground-truth metric, without the judge's errors",
      {
        'retrieval/llm_judged/chunk_relevance/qrels/ndcg@10/count': 3,
        'retrieval/llm_judged/chunk_relevance/precision/count': 1,
        'retrieval/llm_judged/chunk_relevance/error_count': 2,
      },
      3,
    ],
  ])('%s', (_described, statistics, expected) => {
    expect(engineCaseCount(statistics, 12)).toBe(expected);
  });
});
