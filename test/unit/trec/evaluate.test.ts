import { describe, expect, it } from 'vitest';
import {
  DEFAULT_EVALUATION_OPTIONS,
  evaluateRun,
  type Evaluation,
  type EvaluationOptions,
  type MeasureValue,
} from '../../../shared/trec/evaluate.js';
import { selectMeasures, type SelectedMeasure } from '../../../shared/trec/measure-selection.js';
import type { Qrels } from '../../../shared/trec/qrels.js';
import type { Run } from '../../../shared/trec/run.js';
import { qrels, run } from './factories.js';

function measures(names: readonly string[]): SelectedMeasure[] {
  const selection = selectMeasures(names);
  if (!selection.ok) throw new Error(selection.error);
  return selection.value;
}

function evaluate(judgments: Qrels, results: Run, names: readonly string[], options: Partial<EvaluationOptions> = {}): Evaluation {
  const result = evaluateRun(judgments, results, measures(names), { ...DEFAULT_EVALUATION_OPTIONS, ...options });
  if (!result.ok) throw new Error(result.error);
  return result.value;
}

/** `{ name: value }` of a list of values, for compact assertions. */
const valuesOf = (values: readonly MeasureValue[]): Record<string, number | string> =>
  Object.fromEntries(values.map((value) => [value.name, value.value]));

const discount = (rank: number): number => Math.log2(rank + 1);

// A tiny collection:
// - q1: judged d1 = 1, d2 = 0, d3 = 1, d4 = 2 (R = 3 at level 1; d4 never retrieved).
//   The run's lines are out of order; by score: d1 (0.9), d2 (0.8), d3 (0.7), x9 (unjudged, 0.1).
// - q2: only judged 0s (no relevant document); the run retrieves e1.
// - q3: judged, but missing from the run.
// - q9: in the run only.
const collectionQrels = qrels([
  ['q1', { d1: 1, d2: 0, d3: 1, d4: 2 }],
  ['q2', { e1: 0, e2: 0 }],
  ['q3', { f1: 1 }],
]);
const collectionRun = run(
  [
    [
      'q1',
      [
        ['d3', 0.7],
        ['d1', 0.9],
        ['x9', 0.1],
        ['d2', 0.8],
      ],
    ],
    ['q2', [['e1', 1]]],
    ['q9', [['z1', 5]]],
  ],
  'tiny-run',
);
const NAMES = ['runid', 'num_q', 'num_ret', 'num_rel', 'num_rel_ret', 'map', 'Rprec', 'recip_rank', 'P.5', 'ndcg'];

// q1 at level 1: grades 1, 0, 1, unjudged
//   map   = (1/1 + 2/3) / 3                      = 0.5556
//   Rprec = 2 relevant in the top 3 / 3          = 0.6667
//   recip_rank = 1, P_5 = 2 / 5
//   ndcg  = (1 + 1/log2(4)) / (2 + 1/log2(3) + 1/log2(4)) = 0.4791
const q1 = {
  num_ret: 4,
  num_rel: 3,
  num_rel_ret: 2,
  map: (1 / 1 + 2 / 3) / 3,
  Rprec: 2 / 3,
  recip_rank: 1,
  P_5: 2 / 5,
  ndcg: (1 / discount(1) + 1 / discount(3)) / (2 / discount(1) + 1 / discount(2) + 1 / discount(3)),
};
// q2: no relevant document, so every measure but num_ret is 0
const q2 = { num_ret: 1, num_rel: 0, num_rel_ret: 0, map: 0, Rprec: 0, recip_rank: 0, P_5: 0, ndcg: 0 };
// q3 with -c: scored on an empty list
const q3 = { num_ret: 0, num_rel: 1, num_rel_ret: 0, map: 0, Rprec: 0, recip_rank: 0, P_5: 0, ndcg: 0 };

describe('evaluateRun without -c', () => {
  const evaluation = evaluate(collectionQrels, collectionRun, NAMES);

  it('evaluates the topics in both qrels and run, skipping q3 (no results) and q9 (no judgments)', () => {
    expect(evaluation.perTopic.map((topic) => topic.topicId)).toEqual(['q1', 'q2']);
  });

  it('scores each topic by hand-checked values', () => {
    expect(valuesOf(evaluation.perTopic[0]?.values ?? [])).toEqual(q1);
    expect(valuesOf(evaluation.perTopic[1]?.values ?? [])).toEqual(q2);
  });

  it('sums the counts and averages the rest over 2 topics, the topic without relevant documents included', () => {
    expect(valuesOf(evaluation.summary)).toEqual({
      runid: 'tiny-run',
      num_q: 2,
      // 4 + 1, 3 + 0, 2 + 0
      num_ret: 5,
      num_rel: 3,
      num_rel_ret: 2,
      // (0.5556 + 0) / 2 = 0.2778, and so on
      map: (q1.map + 0) / 2,
      Rprec: (q1.Rprec + 0) / 2,
      recip_rank: (1 + 0) / 2,
      P_5: (2 / 5 + 0) / 2,
      ndcg: (q1.ndcg + 0) / 2,
    });
  });

  it('marks the counts as integers and nothing else', () => {
    expect(evaluation.summary.filter((value) => value.integer).map((value) => value.name)).toEqual([
      'num_q',
      'num_ret',
      'num_rel',
      'num_rel_ret',
    ]);
    expect(evaluation.perTopic[0]?.values.filter((value) => value.integer).map((value) => value.name)).toEqual([
      'num_ret',
      'num_rel',
      'num_rel_ret',
    ]);
  });
});

describe('evaluateRun with -c', () => {
  const evaluation = evaluate(collectionQrels, collectionRun, NAMES, { complete: true });

  it('adds the qrels topic missing from the run, scored 0, and still ignores the run-only topic', () => {
    expect(evaluation.perTopic.map((topic) => topic.topicId)).toEqual(['q1', 'q2', 'q3']);
    expect(valuesOf(evaluation.perTopic[2]?.values ?? [])).toEqual(q3);
  });

  it('averages over all 3 qrels topics and counts the missing topic in num_rel', () => {
    expect(valuesOf(evaluation.summary)).toEqual({
      runid: 'tiny-run',
      num_q: 3,
      num_ret: 5,
      // 3 + 0 + 1
      num_rel: 4,
      num_rel_ret: 2,
      // 0.5556 / 3 = 0.1852
      map: (q1.map + 0 + 0) / 3,
      Rprec: (q1.Rprec + 0 + 0) / 3,
      recip_rank: 1 / 3,
      P_5: (2 / 5 + 0 + 0) / 3,
      ndcg: (q1.ndcg + 0 + 0) / 3,
    });
  });

  it('scores every topic 0 when the run has none of them', () => {
    // Act
    const result = evaluateRun(collectionQrels, run([['q9', [['z1', 1]]]]), measures(['num_q', 'map']), {
      ...DEFAULT_EVALUATION_OPTIONS,
      complete: true,
    });

    // Assess
    expect(result.ok && valuesOf(result.value.summary)).toEqual({ num_q: 3, map: 0 });
  });
});

describe('evaluateRun options and errors', () => {
  it('applies the relevance level to the binary measures but not to ndcg', () => {
    // Act
    const evaluation = evaluate(collectionQrels, collectionRun, ['num_rel', 'num_rel_ret', 'map', 'ndcg'], { relevanceLevel: 2 });

    // Assess: at level 2 only the unretrieved d4 is relevant in q1
    expect(valuesOf(evaluation.perTopic[0]?.values ?? [])).toEqual({ num_rel: 1, num_rel_ret: 0, map: 0, ndcg: q1.ndcg });
  });

  it('orders topics by the bytes of their ids, not numerically', () => {
    // Prepare
    const judgments = qrels([
      ['9', { a: 1 }],
      ['301', { a: 1 }],
      ['10', { a: 1 }],
      ['3a', { a: 1 }],
    ]);
    const results = run([
      ['9', [['a', 1]]],
      ['301', [['a', 1]]],
      ['10', [['a', 1]]],
      ['3a', [['a', 1]]],
    ]);

    // Act
    const evaluation = evaluate(judgments, results, ['map']);

    // Assess
    expect(evaluation.perTopic.map((topic) => topic.topicId)).toEqual(['10', '301', '3a', '9']);
  });

  it('reports when no topic has both judgments and results', () => {
    // Act
    const result = evaluateRun(collectionQrels, run([['q9', [['z1', 1]]]]), measures(['map']));

    // Assess
    expect(result).toEqual({
      ok: false,
      error: 'No topic has both judgments and results: check that the qrels and the run use the same topic ids',
    });
  });
});
