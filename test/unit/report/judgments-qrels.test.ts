import { describe, expect, it } from 'vitest';
import { gradedDocuments } from '../../../shared/report/judgments-qrels.js';
import type { CaseLine } from '../../../shared/schema/report.js';

const retrieved = [
  { doc_uri: 'd1', rank: 1 },
  { doc_uri: 'd2', rank: 2 },
  { doc_uri: 'd3', rank: 3 },
];
const line = (metrics: CaseLine['metrics']): CaseLine => ({ case_id: 'q1', request_id: 'q1', engine: 'bm25', metrics, retrieved });

describe('the graded documents of a case line', () => {
  it.each<[string, CaseLine['metrics'], [string, number][]]>([
    ['grades of graded_relevance', { 'retrieval/llm_judged/graded_relevance/ratings': [3, 0, 2] }, [['d1', 3], ['d2', 0], ['d3', 2]]],
    ['yes/no of chunk_relevance as 1/0', { 'retrieval/llm_judged/chunk_relevance/ratings': ['yes', 'no', 'yes'] }, [['d1', 1], ['d2', 0], ['d3', 1]]],
    [
      'graded_relevance when both ran',
      { 'retrieval/llm_judged/chunk_relevance/ratings': ['yes', 'yes', 'yes'], 'retrieval/llm_judged/graded_relevance/ratings': [1, 2, 0] },
      [['d1', 1], ['d2', 2], ['d3', 0]],
    ],
    ['no failed judgment (null)', { 'retrieval/llm_judged/graded_relevance/ratings': [2, null, 1] }, [['d1', 2], ['d3', 1]]],
    ['only the judged top of a deeper list', { 'retrieval/lexical/graded_relevance/ratings': [1] }, [['d1', 1]]],
    ['nothing without a retrieval judge', { 'response/llm_judged/correctness/rating': 'yes' }, []],
  ])('%s', (_, metrics, expected) => {
    expect(gradedDocuments(line(metrics))).toEqual(expected);
  });
});
