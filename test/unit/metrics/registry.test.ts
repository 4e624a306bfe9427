import { describe, expect, it } from 'vitest';
import {
  DEFAULT_CUTOFFS,
  DEFAULT_MEASURE_OPTIONS,
  parseCutoffs,
  resolveMeasures,
  type Measure,
  type MeasureOptions,
} from '../../../shared/metrics/registry.js';
import { NEGATIVE, UNJUDGED, ranking } from './factories.js';

/** The measures a name stands for, or a failed test naming the error. */
function measuresOf(name: string): Measure[] {
  const resolved = resolveMeasures(name);
  if (!resolved.ok) throw new Error(`"${name}" did not resolve: ${resolved.error}`);
  return resolved.value;
}

function errorOf(name: string): string {
  const resolved = resolveMeasures(name);
  if (resolved.ok) throw new Error(`"${name}" resolved to ${resolved.value.map((measure) => measure.name).join(', ')}`);
  return resolved.error;
}

const namesOf = (measures: readonly Measure[]): [string, string][] => measures.map((measure) => [measure.name, measure.trecName]);

const options = (overrides: Partial<MeasureOptions> = {}): MeasureOptions => ({ ...DEFAULT_MEASURE_OPTIONS, ...overrides });

describe('resolveMeasures: names', () => {
  it.each<[string, [string, string][]]>([
    [
      'P.5,10',
      [
        ['precision@5', 'P_5'],
        ['precision@10', 'P_10'],
      ],
    ],
    // trec_eval sorts a cutoff list
    [
      'P.10,5',
      [
        ['precision@5', 'P_5'],
        ['precision@10', 'P_10'],
      ],
    ],
    ['P_5', [['precision@5', 'P_5']]],
    ['precision@5', [['precision@5', 'P_5']]],
    ['P@5', [['precision@5', 'P_5']]],
    ['recall.10', [['recall@10', 'recall_10']]],
    ['recall_10', [['recall@10', 'recall_10']]],
    ['recall@10', [['recall@10', 'recall_10']]],
    ['ndcg_cut.10', [['ndcg@10', 'ndcg_cut_10']]],
    ['ndcg_cut_10', [['ndcg@10', 'ndcg_cut_10']]],
    ['ndcg@10', [['ndcg@10', 'ndcg_cut_10']]],
    ['ndcg', [['ndcg', 'ndcg']]],
    ['ndcg.1=3,2=9', [['ndcg.1=3,2=9', 'ndcg_1=3,2=9']]],
    ['map', [['average_precision', 'map']]],
    ['average_precision', [['average_precision', 'map']]],
    ['ap', [['average_precision', 'map']]],
    ['map_cut.10', [['average_precision@10', 'map_cut_10']]],
    ['map@10', [['average_precision@10', 'map_cut_10']]],
    ['average_precision@10', [['average_precision@10', 'map_cut_10']]],
    ['recip_rank', [['reciprocal_rank', 'recip_rank']]],
    ['mrr', [['reciprocal_rank', 'recip_rank']]],
    ['rr', [['reciprocal_rank', 'recip_rank']]],
    ['Rprec', [['r_precision', 'Rprec']]],
    ['success.5', [['hit@5', 'success_5']]],
    ['success_5', [['hit@5', 'success_5']]],
    ['hit@5', [['hit@5', 'success_5']]],
    ['num_ret', [['num_ret', 'num_ret']]],
    ['num_rel', [['num_rel', 'num_rel']]],
    ['num_rel_ret', [['num_rel_ret', 'num_rel_ret']]],
    ['document_recall', [['document_recall', 'document_recall']]],
    // trec_eval reads each cutoff with atol: "23.4" is 23
    ['P.23.4', [['precision@23', 'P_23']]],
  ])('%s', (name, expected) => {
    expect(namesOf(measuresOf(name))).toEqual(expected);
  });

  it.each([
    ['P', 'precision', 'P'],
    ['recall', 'recall', 'recall'],
    ['ndcg_cut', 'ndcg', 'ndcg_cut'],
    ['map_cut', 'average_precision', 'map_cut'],
  ])("expands %s to trec_eval's default cutoffs 5, 10, …, 1000", (name, family, trecFamily) => {
    expect(namesOf(measuresOf(name))).toEqual(DEFAULT_CUTOFFS.map((k) => [`${family}@${k}`, `${trecFamily}_${k}`]));
    expect(DEFAULT_CUTOFFS).toEqual([5, 10, 15, 20, 30, 100, 200, 500, 1000]);
  });

  it('reads assay family names written alone as the default cutoffs, as trec_eval reads P and success', () => {
    expect(namesOf(measuresOf('precision'))).toEqual(namesOf(measuresOf('P')));
    expect(namesOf(measuresOf('hit'))).toEqual(namesOf(measuresOf('success')));
  });

  it("expands success to trec_eval's default cutoffs for success, 1, 5 and 10 (m_success.c)", () => {
    expect(namesOf(measuresOf('success'))).toEqual([
      ['hit@1', 'success_1'],
      ['hit@5', 'success_5'],
      ['hit@10', 'success_10'],
    ]);
  });

  it.each([
    ['num_ret', 'sum', true],
    ['num_rel', 'sum', true],
    ['num_rel_ret', 'sum', true],
    ['map', 'mean', false],
    ['P_5', 'mean', false],
    ['ndcg', 'mean', false],
    ['document_recall', 'mean', false],
  ])('aggregates %s by %s (printed as an integer: %s)', (name, aggregate, integer) => {
    const [measure] = measuresOf(name);
    expect(measure).toMatchObject({ aggregate, integer });
  });
});

describe('resolveMeasures: errors', () => {
  it.each(['foo', 'NDCG@10', 'ndcg@', 'P_', 'Rprec@5', 'P-5'])('rejects the unknown name "%s"', (name) => {
    const error = errorOf(name);
    expect(error).toMatch(new RegExp(`^Unknown measure "${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}"\\. Known: `));
    expect(error).toContain('precision@K, recall@K, ndcg@K');
  });

  it.each([
    ['P.0', 'Expected every cutoff to be an integer from 1 and up in "P.0"'],
    ['P.5,-1', 'Expected every cutoff to be an integer from 1 and up in "P.5,-1"'],
    ['P.5,5', 'Expected distinct cutoffs, found a duplicate in "P.5,5"'],
    ['recall.10,5,10', 'Expected distinct cutoffs, found a duplicate in "recall.10,5,10"'],
    ['P.', 'Expected a cutoff (a positive integer), got "" in "P."'],
    ['P.5,', 'Expected a cutoff (a positive integer), got "" in "P.5,"'],
    ['ndcg_cut.ten', 'Expected a cutoff (a positive integer), got "ten" in "ndcg_cut.ten"'],
    ['precision@0', 'Expected the cutoff in "precision@0" to be an integer from 1 and up'],
    ['ndcg@0', 'Expected the cutoff in "ndcg@0" to be an integer from 1 and up'],
    ['ndcg.x', 'Expected grade=gain pairs such as "ndcg.1=3,2=9", got "x"'],
    ['ndcg.1=', 'Expected grade=gain pairs such as "ndcg.1=3,2=9", got "1="'],
    ['ndcg.1=3,2=nine', 'Expected grade=gain pairs such as "ndcg.1=3,2=9", got "1=3,2=nine"'],
  ])('rejects the bad parameters of "%s"', (name, expected) => {
    expect(errorOf(name)).toBe(expected);
  });

  it.each([
    ['map.5', 'map'],
    ['Rprec.5', 'Rprec'],
    ['recip_rank.5', 'recip_rank'],
    ['num_ret.5', 'num_ret'],
    ['document_recall.5', 'document_recall'],
  ])('rejects parameters on the plain measure "%s"', (name, base) => {
    expect(errorOf(name)).toMatch(new RegExp(`^Measure "${base}" takes no parameters`));
  });

  it('suggests only cutoff forms that exist when rejecting parameters on a plain measure', () => {
    // Prepare
    const suggested: [string, string][] = [];

    // Act
    for (const name of ['map.5', 'Rprec.5', 'recip_rank.5', 'num_ret.5', 'document_recall.5']) {
      const suggestion = /\(a cutoff version is (\w+)@K\)/.exec(errorOf(name))?.[1];
      if (suggestion !== undefined) suggested.push([name, `${suggestion}@5`]);
    }

    // Assess: every name suggested as "X@K" should itself resolve
    const unresolved = suggested.filter(([, suggestion]) => !resolveMeasures(suggestion).ok);
    expect(unresolved).toEqual([]);
  });
});

describe('parseCutoffs', () => {
  it.each<[string, number[]]>([
    ['5', [5]],
    ['10,5,20', [5, 10, 20]],
    // atol: leading blanks and a sign are read, the rest of the field ignored
    [' 7', [7]],
    ['+3', [3]],
    ['23.4', [23]],
    ['12abc', [12]],
  ])('reads "%s" as %j', (text, expected) => {
    expect(parseCutoffs(text)).toEqual({ ok: true, value: expected });
  });

  it.each([
    ['0', 'Expected every cutoff to be an integer from 1 and up'],
    ['-5', 'Expected every cutoff to be an integer from 1 and up'],
    ['5,5', 'Expected distinct cutoffs, found a duplicate'],
    ['abc', 'Expected a cutoff (a positive integer), got "abc"'],
    ['', 'Expected a cutoff (a positive integer), got ""'],
  ])('rejects "%s"', (text, error) => {
    expect(parseCutoffs(text)).toEqual({ ok: false, error });
  });
});

describe('resolved measures compute the functions they name', () => {
  // Grades 2, 0, 1, unjudged, negative; qrels {0: 2, 1: 2, 2: 1}: R = 3 at level 1, 1 at level 2.
  const judged = ranking([2, 0, 1, UNJUDGED, NEGATIVE], { 0: 2, 1: 2, 2: 1 });
  const discount = (rank: number): number => Math.log2(rank + 1);

  it.each<[string, MeasureOptions, number | undefined]>([
    // relevant at ranks 1, 3 in the top 5: 2 / 5
    ['P_5', options(), 2 / 5],
    ['recall@3', options(), 2 / 3],
    // (1/1 + 2/3) / 3
    ['map', options(), (1 / 1 + 2 / 3) / 3],
    // level 2: only the 2 at rank 1, R = 1
    ['map', options({ relevanceLevel: 2 }), 1],
    // cut at 1: (1/1) / 3
    ['map_cut.1', options(), 1 / 1 / 3],
    ['Rprec', options(), 2 / 3],
    ['recip_rank', options(), 1],
    ['success.1', options(), 1],
    ['num_ret', options(), 5],
    ['num_rel', options(), 3],
    ['num_rel', options({ relevanceLevel: 2 }), 1],
    ['num_rel_ret', options(), 2],
    // num_rel_ret / num_rel: 2 / 3
    ['document_recall', options(), 2 / 3],
    // ndcg ignores the relevance level: (2 + 1/log2(4)) / (2 + 1/log2(3) + 1/log2(4)) either way
    ['ndcg', options({ relevanceLevel: 2 }), (2 / discount(1) + 1 / discount(3)) / (2 / discount(1) + 1 / discount(2) + 1 / discount(3))],
    ['ndcg@2', options({ relevanceLevel: 2 }), 2 / (2 + 1 / discount(2))],
    // exponential: (3 + 1/log2(4)) / (3 + 1/log2(3) + 1/log2(4))
    ['ndcg', options({ gain: 'exponential' }), (3 / discount(1) + 1 / discount(3)) / (3 / discount(1) + 1 / discount(2) + 1 / discount(3))],
    // gain map 1 -> 3, 2 -> 9: (9 + 3/log2(4)) / (9 + 3/log2(3) + 3/log2(4))
    ['ndcg.1=3,2=9', options(), (9 / discount(1) + 3 / discount(3)) / (9 / discount(1) + 3 / discount(2) + 3 / discount(3))],
  ])('%s with %j', (name, measureOptions, expected) => {
    // Act
    const [measure] = measuresOf(name);
    const value = measure?.compute(judged, measureOptions);

    // Assess
    expect(value).toBeCloseTo(expected as number, 14);
  });

  it('leaves document_recall undefined when the query has no relevant document', () => {
    const [measure] = measuresOf('document_recall');
    expect(measure?.compute(ranking([0, UNJUDGED], { 0: 1 }), options())).toBeUndefined();
  });

  it('keeps the first gain of a grade listed twice', () => {
    // 1 -> 3 wins over 1 -> 100: the same value as ndcg.1=3
    const [twice] = measuresOf('ndcg.1=3,1=100');
    const [once] = measuresOf('ndcg.1=3');
    expect(twice?.compute(judged, options())).toBe(once?.compute(judged, options()));
  });
});
