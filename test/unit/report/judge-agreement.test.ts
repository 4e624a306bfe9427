import { describe, expect, it } from 'vitest';
import { AgreementTally } from '../../../shared/report/judge-agreement.js';
import type { CaseLine } from '../../../shared/schema/report.js';
import { qrels, reportOf } from '../agreement/factories.js';

type Rating = number | string | null;
const GRADED = 'retrieval/llm_judged/graded_relevance/ratings';
const BINARY = 'retrieval/llm_judged/chunk_relevance/ratings';

/** One engine's line of a case: its ranked documents with their human grades (undefined: unlabelled), and per-chunk ratings by metric. */
function judgedLine(
  caseId: string,
  engine: string,
  documents: readonly (readonly [string, number | undefined])[],
  ratings: CaseLine['metrics'],
): CaseLine {
  return {
    case_id: caseId,
    request_id: caseId,
    engine,
    metrics: { ...ratings },
    retrieved: documents.map(([doc_uri, humanGrade], index) => ({
      doc_uri,
      rank: index + 1,
      ...(humanGrade === undefined ? {} : { human_grade: humanGrade }),
    })),
  };
}

function tallied(lines: readonly CaseLine[]): AgreementTally {
  const tally = new AgreementTally();
  for (const line of lines) tally.add(line);
  return tally;
}

interface PairsCase {
  /** Per case: [document, human grade or undefined, judge rating]. */
  readonly cases: Readonly<Record<string, readonly (readonly [string, number | undefined, Rating])[]>>;
  readonly metric: string;
}

describe('AgreementTally against the pair-list agreement of `assay agreement`', () => {
  it.each<[string, PairsCase]>([
    [
      'grades 0-3 with disagreements over two cases, unlabelled documents skipped',
      {
        metric: GRADED,
        cases: {
          q1: [
            ['a', 0, 0],
            ['b', 0, 1],
            ['c', 1, 1],
            ['x', undefined, 3],
          ],
          q2: [
            ['d', 2, 2],
            ['e', 3, 3],
            ['f', 3, 2],
            ['g', 1, 2],
            ['y', undefined, 0],
          ],
        },
      },
    ],
    [
      'a yes/no judge, read as 1/0, against grades 0-2 read as relevant (1) or not (0)',
      {
        metric: BINARY,
        cases: {
          q1: [
            ['a', 0, 'no'],
            ['b', 2, 'yes'],
            ['c', 1, 'no'],
          ],
          q2: [
            ['d', 1, 'yes'],
            ['e', 0, 'yes'],
            ['z', undefined, 'yes'],
          ],
        },
      },
    ],
    [
      'negative human grades as a category of their own',
      {
        metric: GRADED,
        cases: {
          q1: [
            ['a', -1, 0],
            ['b', 0, 0],
            ['c', 2, 2],
            ['d', -1, -1],
          ],
        },
      },
    ],
    [
      'one category on both sides: kappa undefined, with a reason',
      {
        metric: GRADED,
        cases: {
          q1: [
            ['a', 1, 1],
            ['b', 1, 1],
          ],
        },
      },
    ],
    [
      'failed judgments left out',
      {
        metric: GRADED,
        cases: {
          q1: [
            ['a', 0, null],
            ['b', 2, 2],
            ['c', 0, 1],
          ],
        },
      },
    ],
  ])('%s', (_, { cases, metric }) => {
    // Prepare: the same labels as case lines and as two qrels files
    const lines = Object.entries(cases).map(([caseId, documents]) =>
      judgedLine(
        caseId,
        'bm25',
        documents.map(([document, human]) => [document, human] as const),
        { [metric]: documents.map(([, , rating]) => rating) },
      ),
    );
    const asGrade = (rating: Rating): number | undefined =>
      rating === 'yes' ? 1 : rating === 'no' ? 0 : typeof rating === 'number' ? rating : undefined;
    // A yes/no judge is set against the human labels cut at level 1, as `assay agreement` would see them after that cut.
    const humanGrade = (grade: number): number => (metric === BINARY ? Number(grade >= 1) : grade);
    const human = qrels(
      Object.entries(cases).map(
        ([caseId, documents]) =>
          [
            caseId,
            Object.fromEntries(documents.flatMap(([document, grade]) => (grade === undefined ? [] : [[document, humanGrade(grade)]]))),
          ] as const,
      ),
    );
    const judge = qrels(
      Object.entries(cases).map(
        ([caseId, documents]) =>
          [
            caseId,
            Object.fromEntries(
              documents.flatMap(([document, , rating]) => (asGrade(rating) === undefined ? [] : [[document, asGrade(rating) as number]])),
            ),
          ] as const,
      ),
    );

    // Act
    const judgeName = metric === GRADED ? 'graded_relevance' : 'chunk_relevance';
    const counted = tallied(lines).agreement()?.[judgeName];
    const paired = reportOf(human, judge);

    // Assess: every statistic, reasons and table the same as from the list of pairs
    expect(counted).toEqual({
      pairs: paired.pairs,
      exact_agreement: paired.exact_agreement,
      cohen_kappa: paired.cohen_kappa,
      weighted_kappa: paired.weighted_kappa,
      binary: paired.binary,
      confusion: paired.confusion,
      reasons: Object.fromEntries(Object.entries(paired.reasons).filter(([path]) => !path.startsWith('intervals.'))),
    });
  });
});

describe('AgreementTally: a yes/no judge', () => {
  it('agrees fully when it says yes to exactly the documents the humans grade relevant', () => {
    // Prepare: human grades 0-3; the judge says yes to every grade of 1 or more
    const documents = [
      ['a', 0],
      ['b', 1],
      ['c', 2],
      ['d', 3],
      ['e', 0],
      ['f', 3],
    ] as const;
    const line = judgedLine('q1', 'bm25', documents, { [BINARY]: documents.map(([, grade]) => (grade >= 1 ? 'yes' : 'no')) });

    // Act
    const agreement = tallied([line]).agreement()?.chunk_relevance;

    // Assess: a 2 × 2 table on the diagonal
    expect(agreement?.confusion).toEqual({ '0': { '0': 2, '1': 0 }, '1': { '0': 0, '1': 4 } });
    expect(agreement?.exact_agreement).toBe(1);
    expect(agreement?.cohen_kappa).toBe(1);
    expect(agreement?.binary.kappa).toBe(1);
  });
});

describe('AgreementTally: which documents and judges count', () => {
  it('counts a document once per case, at its first judged chunk over all engines', () => {
    // Prepare: d1 judged by two engines of q1 (the second chunk's grade differs), and again in q2; d2 failed in bm25, judged in dense
    const lines = [
      judgedLine(
        'q1',
        'bm25',
        [
          ['d1', 2],
          ['d2', 1],
        ],
        { [GRADED]: [2, null] },
      ),
      judgedLine(
        'q1',
        'dense',
        [
          ['d1', 2],
          ['d2', 1],
        ],
        { [GRADED]: [0, 1] },
      ),
      judgedLine('q2', 'bm25', [['d1', 0]], { [GRADED]: [0] }),
    ];

    // Act
    const agreement = tallied(lines).agreement()?.graded_relevance;

    // Assess: pairs (2, 2) and (1, 1) in q1, (0, 0) in q2: all three agree
    expect(agreement?.pairs).toBe(3);
    expect(agreement?.exact_agreement).toBe(1);
    expect(agreement?.confusion).toEqual({
      '0': { '0': 1, '1': 0, '2': 0 },
      '1': { '0': 0, '1': 1, '2': 0 },
      '2': { '0': 0, '1': 0, '2': 1 },
    });
  });

  it('keeps model variants and the lexical backend apart by judge name, and leaves custom judges out', () => {
    // Prepare
    const line = judgedLine(
      'q1',
      'bm25',
      [
        ['a', 0],
        ['b', 3],
      ],
      {
        [GRADED]: [0, 3],
        'retrieval/llm_judged/graded_relevance@gpt-4o/ratings': [1, 3],
        [BINARY]: ['no', 'yes'],
        'retrieval/llm_judged/tone_check/ratings': [4, 5],
        'retrieval/llm_judged/graded_relevance/rationales': ['r', 's'],
      },
    );

    // Act
    const agreement = tallied([line]).agreement() ?? {};

    // Assess
    expect(Object.keys(agreement)).toEqual(['chunk_relevance', 'graded_relevance', 'graded_relevance@gpt-4o']);
    expect(agreement['graded_relevance@gpt-4o']?.exact_agreement).toBe(0.5);
    expect(
      tallied([judgedLine('q1', 'bm25', [['a', 1]], { 'retrieval/lexical/graded_relevance/ratings': [1] })]).agreement(),
    ).toHaveProperty('graded_relevance.pairs', 1);
  });

  it.each<[string, CaseLine[]]>([
    ['no document carries a human label', [judgedLine('q1', 'bm25', [['a', undefined]], { [GRADED]: [2] })]],
    ['no relevance judge ran', [judgedLine('q1', 'bm25', [['a', 2]], { 'retrieval/ground_truth/precision@5': 0.2 })]],
    ['there is no line', []],
  ])('gives no block when %s', (_, lines) => {
    expect(tallied(lines).agreement()).toBeUndefined();
  });

  it('reports a judge with labels in the run but no pair, with null statistics and their reasons', () => {
    // Prepare: the labelled document was not judged (below the judge depth), the judged one has no label
    const line = judgedLine(
      'q1',
      'bm25',
      [
        ['a', undefined],
        ['b', 2],
      ],
      { [GRADED]: [1] },
    );

    // Act
    const agreement = tallied([line]).agreement()?.graded_relevance;

    // Assess
    expect(agreement).toMatchObject({ pairs: 0, exact_agreement: null, cohen_kappa: null, weighted_kappa: null, confusion: {} });
    expect(agreement?.reasons.cohen_kappa).toMatch(/no item/);
    expect(JSON.stringify(agreement)).not.toMatch(/NaN/);
  });
});
