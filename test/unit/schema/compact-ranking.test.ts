import { describe, expect, it } from 'vitest';
import {
  compactRanking,
  compactRankingSchema,
  expandRanking,
  rankingOf,
  type RankedDocument,
} from '../../../shared/schema/compact-ranking.js';
import type { EvalCase, RetrievedChunk } from '../../../shared/schema/eval-case.js';
import { parseStoredCase, storedCaseText } from '../../../shared/schema/stored-case.js';

function rankedList(length: number): RankedDocument[] {
  return Array.from({ length }, (_, index) =>
    index % 3 === 2 ? { doc_uri: `d${index}`, rank: index + 1 } : { doc_uri: `d${index}`, rank: index + 1, score: 10 - index / 4 },
  );
}

function caseWith(engines: Record<string, readonly RetrievedChunk[]>): EvalCase {
  return {
    request_id: 'q1',
    request: 'what is bm25?',
    engines: Object.fromEntries(
      Object.entries(engines).map(([name, list]) => [
        name,
        { retrieved_context: [...list], response: `answer of ${name}`, tags: { variant: name } },
      ]),
    ),
    expected_retrieved_context: [{ doc_uri: 'd1', grade: 2 }],
    tags: { split: 'test' },
  };
}

describe('compactRanking', () => {
  it('keeps ids and scores in columns and gives the same list back', () => {
    // Prepare
    const list = rankedList(7);

    // Act
    const compact = compactRanking(list);

    // Assess
    expect(compact?.doc_uris).toEqual(['d0', 'd1', 'd2', 'd3', 'd4', 'd5', 'd6']);
    expect(compact?.scores[2]).toBeNull();
    expect(expandRanking(compact ?? { doc_uris: [], scores: [] })).toEqual(list);
  });

  it('keeps human grades in a third column when any document has one', () => {
    // Prepare: d1 labelled 2, d3 labelled 0, the rest unlabelled
    const list = rankedList(4).map((document) =>
      document.doc_uri === 'd1' ? { ...document, human_grade: 2 } : document.doc_uri === 'd3' ? { ...document, human_grade: 0 } : document,
    );

    // Act
    const compact = compactRanking(list);

    // Assess
    expect(compact?.human_grades).toEqual([null, 2, null, 0]);
    expect(compactRanking(rankedList(4))).not.toHaveProperty('human_grades');
    expect(expandRanking(compact ?? { doc_uris: [], scores: [] })).toEqual(list);
  });

  it.each([
    {
      name: 'a gap in the ranks',
      list: [
        { doc_uri: 'a', rank: 1 },
        { doc_uri: 'b', rank: 3 },
      ],
    },
    {
      name: 'ranks out of order',
      list: [
        { doc_uri: 'a', rank: 2 },
        { doc_uri: 'b', rank: 1 },
      ],
    },
    { name: 'a chunk with text', list: [{ doc_uri: 'a', rank: 1, content: 'BM25 is a ranking function' }] },
    { name: 'a chunk with metadata', list: [{ doc_uri: 'a', rank: 1, metadata: { page: 3 } }] },
  ])('leaves a list in object form when it holds more than ids and scores: $name', ({ list }) => {
    expect(compactRanking(list)).toBeUndefined();
  });

  it.each([
    { name: 'an empty id', ranking: { doc_uris: ['a', ''], scores: [1, 2] }, message: 'doc_uris' },
    { name: 'an infinite score', ranking: { doc_uris: ['a'], scores: [Number.POSITIVE_INFINITY] }, message: 'scores' },
    { name: 'columns of two lengths', ranking: { doc_uris: ['a', 'b'], scores: [1] }, message: 'one entry per document' },
    {
      name: 'a grade column of another length',
      ranking: { doc_uris: ['a', 'b'], scores: [1, 2], human_grades: [1] },
      message: 'one entry per document',
    },
    { name: 'a fractional grade', ranking: { doc_uris: ['a'], scores: [1], human_grades: [1.5] }, message: 'human_grades' },
  ])('refuses a stored ranking with $name', ({ ranking, message }) => {
    const parsed = compactRankingSchema.safeParse(ranking);
    expect(parsed.success).toBe(false);
    expect(parsed.error?.message).toContain(message);
  });
});

describe('rankingOf', () => {
  it.each([
    [
      'graded, with scores',
      [
        { doc_uri: 'a', rank: 1, score: 2 },
        { doc_uri: 'b', rank: 2, score: 1 },
      ],
      { a: 3 },
    ],
    ['ungraded', [{ doc_uri: 'a', rank: 1, score: 2 }], {}],
    [
      'without scores, text and all',
      [
        { doc_uri: 'a', rank: 1, content: 'text' },
        { doc_uri: 'b', rank: 2 },
      ],
      { b: 0 },
    ],
  ])(
    'gives compactRanking of the ids, ranks, scores and grades alone: %s',
    (_name, chunks: RetrievedChunk[], grades: Record<string, number>) => {
      // Prepare: the list as the worker used to build it, one object per document
      const ranked: RankedDocument[] = chunks.map((chunk) => ({
        doc_uri: chunk.doc_uri,
        rank: chunk.rank,
        ...(chunk.score === undefined ? {} : { score: chunk.score }),
        ...(grades[chunk.doc_uri] === undefined ? {} : { human_grade: grades[chunk.doc_uri] as number }),
      }));

      // Act
      const ranking = rankingOf(chunks, (documentId) => grades[documentId]);

      // Assess
      expect(ranking).toEqual(compactRanking(ranked));
    },
  );

  it('leaves a list whose ranks are not the positions to its object form', () => {
    expect(rankingOf([{ doc_uri: 'a', rank: 2 }], () => undefined)).toBeUndefined();
  });
});

describe('stored cases', () => {
  it('store long plain lists in compact form and read back the case as it was', () => {
    // Prepare: one engine with a plain list, one whose chunks carry text
    const evalCase = caseWith({ bm25: rankedList(1_000), dense: [{ doc_uri: 'd9', rank: 1, content: 'a passage', score: 0.5 }] });

    // Act
    const text = storedCaseText(evalCase);
    const readBack = parseStoredCase(JSON.parse(text));

    // Assess
    const stored = JSON.parse(text) as { engines: Record<string, Record<string, unknown>> };
    expect(Object.keys(stored.engines.bm25 ?? {}).sort()).toEqual(['ranking', 'response', 'tags']);
    expect(Object.keys(stored.engines.dense ?? {}).sort()).toEqual(['response', 'retrieved_context', 'tags']);
    expect(readBack).toEqual(evalCase);
    expect(text.length).toBeLessThan(JSON.stringify(evalCase).length / 2);
  });

  it('refuses an engine output that carries both forms of its list', () => {
    // Prepare
    const stored = JSON.parse(storedCaseText(caseWith({ bm25: rankedList(3) }))) as { engines: { bm25: Record<string, unknown> } };
    stored.engines.bm25.retrieved_context = [{ doc_uri: 'x', rank: 1 }];

    // Act / Assess
    expect(() => parseStoredCase(stored)).toThrow();
  });
});
