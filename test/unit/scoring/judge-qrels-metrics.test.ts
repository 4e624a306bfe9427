import { describe, expect, it } from 'vitest';
import type { EvalCase } from '../../../shared/schema/eval-case.js';
import { judgeQrelsMetrics } from '../../../shared/scoring/judge-qrels-metrics.js';

/**
 * A relevance judge's value of a ground-truth metric: the same formula with
 * the judge's grades, pooled over the case's engines, as the qrels.
 */
const GRADED = 'retrieval/llm_judged/graded_relevance/ratings';
const CHUNK = 'retrieval/llm_judged/chunk_relevance/ratings';

function evalCase(engines: Record<string, readonly string[]>): EvalCase {
  return {
    request_id: 'q1',
    request: 'how do I rotate a key?',
    tags: {},
    engines: Object.fromEntries(
      Object.entries(engines).map(([engine, documents]) => [
        engine,
        { tags: {}, retrieved_context: documents.map((doc_uri, index) => ({ doc_uri, rank: index + 1 })) },
      ]),
    ),
  };
}

describe('a judge value of the ground-truth metrics', () => {
  it('pools the judge grades over the case engines as the qrels, its grades the gains of NDCG', () => {
    // Prepare: bm25 ranks a, b; dense ranks b, c. The judge grades a 0, b 3 (on bm25, first by name) and c 2 (on dense): qrels {a: 0, b: 3, c: 2}.
    const metrics = judgeQrelsMetrics(
      evalCase({ bm25: ['a', 'b'], dense: ['b', 'c'] }),
      { bm25: { [GRADED]: [0, 3] }, dense: { [GRADED]: [2, 2] } },
      [2],
    );

    // Assess: bm25 DCG@2 = 0 + 3 / log2(3) = 1.8928, ideal 3 + 2 / log2(3) = 4.2619: 0.4441; dense (3 + 2 / log2(3)) / ideal = 1
    expect(metrics.bm25?.['retrieval/llm_judged/graded_relevance/qrels/ndcg@2']).toBeCloseTo(3 / Math.log2(3) / (3 + 2 / Math.log2(3)), 12);
    expect(metrics.dense?.['retrieval/llm_judged/graded_relevance/qrels/ndcg@2']).toBe(1);
    // AP at grade 1: bm25 finds b at 2 of R = 2 relevant (b, c): (1/2) / 2 = 0.25; dense finds both: 1
    expect(metrics.bm25?.['retrieval/llm_judged/graded_relevance/qrels/average_precision']).toBe(0.25);
    expect(metrics.dense?.['retrieval/llm_judged/graded_relevance/qrels/average_precision']).toBe(1);
  });

  it('gives a yes/no judge the binary metrics only, "yes" relevant', () => {
    const metrics = judgeQrelsMetrics(evalCase({ bm25: ['a', 'b'] }), { bm25: { [CHUNK]: ['no', 'yes'] } }, [1]);

    expect(metrics.bm25).toEqual({
      'retrieval/llm_judged/chunk_relevance/qrels/precision@1': 0,
      'retrieval/llm_judged/chunk_relevance/qrels/recall@1': 0,
      'retrieval/llm_judged/chunk_relevance/qrels/average_precision': 0.5,
      'retrieval/llm_judged/chunk_relevance/qrels/reciprocal_rank': 0.5,
    });
  });

  it('names the lexical judge by its source, and gives nothing for a case no relevance judge graded', () => {
    const lexical = judgeQrelsMetrics(evalCase({ bm25: ['a'] }), { bm25: { 'retrieval/lexical/graded_relevance/ratings': [2] } }, [1]);
    const none = judgeQrelsMetrics(evalCase({ bm25: ['a'] }), { bm25: { 'response/llm_judged/correctness/rating': 'yes' } }, [1]);

    expect(Object.keys(lexical.bm25 ?? {})).toContain('retrieval/lexical/graded_relevance/qrels/ndcg@1');
    expect(none).toEqual({ bm25: {} });
  });
});
