import { describe, expect, it } from 'vitest';
import { canaryAgreement } from '../../../shared/canaries/canary-agreement.js';
import { canaryItems } from '../../../shared/canaries/canary-items.js';
import type { CaseLine } from '../../../shared/schema/report.js';

/** A canary case's line of one engine: its documents with their human grades, and the metrics given. */
function line(requestId: string, engine: string, documents: [string, number | undefined][], metrics: CaseLine['metrics']): CaseLine {
  return {
    case_id: `canary~${requestId}`,
    request_id: requestId,
    engine,
    metrics,
    retrieved: documents.map(([doc_uri, grade], index) => ({
      doc_uri,
      rank: index + 1,
      ...(grade === undefined ? {} : { human_grade: grade }),
    })),
  };
}

describe('canaryItems', () => {
  it("reads a retrieval judge's verdict of each document once per request, over the engines, with its human grade", () => {
    // Prepare: two engines share d1; the first judged it yes, the second's failed judgment of d2 is taken up by nothing
    const lines = [
      line(
        'q1',
        'bm25',
        [
          ['d1', 2],
          ['d2', 0],
        ],
        { 'retrieval/llm_judged/chunk_relevance/ratings': ['yes', null] },
      ),
      line(
        'q1',
        'dense',
        [
          ['d2', 0],
          ['d1', 2],
          ['d3', undefined],
        ],
        { 'retrieval/llm_judged/chunk_relevance/ratings': ['no', 'no', 'yes'] },
      ),
    ];

    // Act
    const items = canaryItems(lines);

    // Assess: d1 keeps bm25's yes; d2's failed first judgment gives way to dense's no; d3 has no human grade
    expect(items.get('chunk_relevance')).toEqual({
      scale: 'yes_no',
      items: [
        { request_id: 'q1', document: 'd1', verdict: 1, human: 2 },
        { request_id: 'q1', document: 'd2', verdict: 0, human: 0 },
        { request_id: 'q1', document: 'd3', verdict: 1 },
      ],
    });
  });

  it("reads an answer judge's rating of each engine's answer, with the human verdict on that judge, a variant's too", () => {
    // Prepare
    const lines = [
      line('q1', 'bm25', [], {
        'response/llm_judged/correctness/rating': 'no',
        'response/llm_judged/correctness@judge-b/rating': 'yes',
        'response/human/correctness/rating': 'yes',
      }),
      line('q2', 'bm25', [], { 'response/llm_judged/correctness/rating': null, 'response/llm_judged/correctness@judge-b/rating': 'yes' }),
    ];

    // Act
    const items = canaryItems(lines);

    // Assess
    expect(items.get('correctness')?.items).toEqual([
      { request_id: 'q1', engine: 'bm25', verdict: 0, human: 1 },
      { request_id: 'q2', engine: 'bm25', verdict: null },
    ]);
    expect(items.get('correctness@judge-b')?.items[0]).toEqual({ request_id: 'q1', engine: 'bm25', verdict: 1, human: 1 });
    expect([...items.keys()]).toEqual(['correctness', 'correctness@judge-b']);
  });

  it('reads grades as graded, sorts items by request and document, and leaves out ground-truth and human metrics', () => {
    // Prepare
    const lines = [
      line('q2', 'search', [['d9', 1]], { 'retrieval/llm_judged/graded_relevance/ratings': [2], 'retrieval/ground_truth/ndcg@10': 0.5 }),
      line('q1', 'search', [['d5', 3]], {
        'retrieval/llm_judged/graded_relevance/ratings': [3],
        'response/human/correctness/rating': 'yes',
      }),
    ];

    // Act
    const items = canaryItems(lines);

    // Assess
    expect([...items.keys()]).toEqual(['graded_relevance']);
    expect(items.get('graded_relevance')).toEqual({
      scale: 'graded',
      items: [
        { request_id: 'q1', document: 'd5', verdict: 3, human: 3 },
        { request_id: 'q2', document: 'd9', verdict: 2, human: 1 },
      ],
    });
  });
});

describe('canaryAgreement', () => {
  it("sets a yes/no judge against the human grades read as relevant or not, as the report's agreement does", () => {
    // Prepare: human grades 2, 0, 1, 0 read as 1, 0, 1, 0; the judge says 1, 0, 0, 0: 3 of 4 agree
    const items = [
      { request_id: 'q', document: 'a', verdict: 1, human: 2 },
      { request_id: 'q', document: 'b', verdict: 0, human: 0 },
      { request_id: 'q', document: 'c', verdict: 0, human: 1 },
      { request_id: 'q', document: 'd', verdict: 0, human: 0 },
      { request_id: 'q', document: 'e', verdict: null, human: 1 },
      { request_id: 'q', document: 'f', verdict: 1 },
    ];

    // Act
    const agreement = canaryAgreement(items, 'yes_no');

    // Assess: p_o = 3/4; rows (2 relevant, 2 not), columns (1 yes, 3 no): p_e = (2·1 + 2·3)/16 = 0.5; kappa = 0.25/0.5
    expect(agreement?.pairs).toBe(4);
    expect(agreement?.exact_agreement).toBe(0.75);
    expect(agreement?.cohen_kappa).toBeCloseTo(0.5, 12);
    expect(agreement?.confusion).toEqual({ '0': { '0': 2, '1': 0 }, '1': { '0': 1, '1': 1 } });
  });

  it('is undefined when no item has both a verdict and a human label', () => {
    expect(canaryAgreement([{ request_id: 'q', document: 'a', verdict: 1 }], 'yes_no')).toBeUndefined();
  });
});
