import { describe, expect, it } from 'vitest';
import { resolveMeasures } from '../../../shared/metrics/registry.js';
import { selectMeasures, type SelectedMeasure } from '../../../shared/trec/measure-selection.js';

/** trec_eval's printed names of a selection, in order. */
function printedNames(requested: readonly string[]): string[] {
  const selection = selectMeasures(requested);
  if (!selection.ok) throw new Error(`selection failed: ${selection.error}`);
  return selection.value.map(printedName);
}

function printedName(selected: SelectedMeasure): string {
  return selected.kind === 'collection' ? selected.name : selected.measure.trecName;
}

function errorOf(requested: readonly string[]): string {
  const selection = selectMeasures(requested);
  if (selection.ok) throw new Error(`selection succeeded: ${selection.value.map(printedName).join(', ')}`);
  return selection.error;
}

const OFFICIAL = ['runid', 'num_q', 'num_ret', 'num_rel', 'num_rel_ret', 'map', 'Rprec', 'recip_rank'];
const P_DEFAULTS = ['P_5', 'P_10', 'P_15', 'P_20', 'P_30', 'P_100', 'P_200', 'P_500', 'P_1000'];

describe('selectMeasures', () => {
  it("selects trec_eval's official measures without -m", () => {
    expect(printedNames([])).toEqual([...OFFICIAL, ...P_DEFAULTS]);
    expect(printedNames(['official'])).toEqual([...OFFICIAL, ...P_DEFAULTS]);
  });

  it.each<[string, string[], string[]]>([
    [
      'in the fixed order, whatever the command-line order',
      ['ndcg_cut.10', 'P.5', 'map', 'num_q', 'runid'],
      ['runid', 'num_q', 'map', 'P_5', 'ndcg_cut_10'],
    ],
    [
      'the whole fixed order',
      [
        'success.1',
        'map_cut.5',
        'ndcg_cut.5',
        'ndcg',
        'recall.5',
        'P.5',
        'recip_rank',
        'Rprec',
        'map',
        'num_rel_ret',
        'num_rel',
        'num_ret',
        'num_q',
        'runid',
      ],
      [
        'runid',
        'num_q',
        'num_ret',
        'num_rel',
        'num_rel_ret',
        'map',
        'Rprec',
        'recip_rank',
        'P_5',
        'recall_5',
        'ndcg',
        'ndcg_cut_5',
        'map_cut_5',
        'success_1',
      ],
    ],
    ['each measure once when named twice', ['map', 'map', 'num_q'], ['num_q', 'map']],
    ['a sorted cutoff list', ['P.20,5,10'], ['P_5', 'P_10', 'P_20']],
    ['the first parameter list of a family', ['P.5,10', 'P.20'], ['P_5', 'P_10']],
    ['the first parameter list, whatever name form gives it', ['precision@5', 'P.10', 'P_20'], ['P_5']],
    // a bare family name carries no parameter list, so a later list still applies (trec_eval's meas_arg)
    ['a later list after a bare family name', ['P', 'P.20'], ['P_20']],
    [
      'the default cutoffs for a bare family name',
      ['recall'],
      ['recall_5', 'recall_10', 'recall_15', 'recall_20', 'recall_30', 'recall_100', 'recall_200', 'recall_500', 'recall_1000'],
    ],
    ["success's own defaults 1, 5, 10", ['success'], ['success_1', 'success_5', 'success_10']],
    ['assay names for families', ['ndcg@10', 'hit@3', 'map@100', 'recall@7'], ['recall_7', 'ndcg_cut_10', 'map_cut_100', 'success_3']],
    ['assay names for plain measures', ['reciprocal_rank', 'mrr', 'r_precision'], ['Rprec', 'recip_rank']],
    ['printed names', ['P_5', 'ndcg_cut_10'], ['P_5', 'ndcg_cut_10']],
    ['a cutoff list set after a nickname', ['official', 'P.5'], [...OFFICIAL, 'P_5']],
    ['gain parameters of ndcg', ['ndcg.1=3,2=9'], ['ndcg_1=3,2=9']],
    ['plain ndcg beside ndcg@k', ['ndcg@5', 'ndcg'], ['ndcg', 'ndcg_cut_5']],
    [
      'every family of all_trec',
      ['all_trec'],
      [
        'runid',
        'num_q',
        'num_ret',
        'num_rel',
        'num_rel_ret',
        'map',
        'Rprec',
        'recip_rank',
        ...P_DEFAULTS,
        ...P_DEFAULTS.map((name) => name.replace('P_', 'recall_')),
        'ndcg',
        ...P_DEFAULTS.map((name) => name.replace('P_', 'ndcg_cut_')),
        ...P_DEFAULTS.map((name) => name.replace('P_', 'map_cut_')),
        'success_1',
        'success_5',
        'success_10',
      ],
    ],
  ])('selects %s', (_described, requested, expected) => {
    expect(printedNames(requested)).toEqual(expected);
  });

  it.each([['average_precision'], ['ap']])('selects the same measure for "%s" as the registry, map', (name) => {
    // Prepare: the registry's meaning of the name
    const resolved = resolveMeasures(name);

    // Act
    const selected = printedNames([name]);

    // Assess
    expect(resolved.ok && resolved.value.map((measure) => measure.trecName)).toEqual(['map']);
    expect(selected).toEqual(['map']);
  });

  it('marks runid and num_q as collection values and the rest as per-query measures', () => {
    const selection = selectMeasures(['runid', 'num_q', 'map']);
    expect(selection.ok && selection.value.map((selected) => selected.kind)).toEqual(['collection', 'collection', 'query']);
  });

  it.each([
    ['foo', /^Unsupported measure "foo"\. ir-metrics computes: num_q, /],
    ['map.5', /^Unsupported measure "map\.5"\./],
    ['Rprec.2', /^Unsupported measure "Rprec\.2"\./],
    ['document_recall', /^Measure "document_recall" has no trec_eval counterpart; use it in reports, not in ir-metrics$/],
    ['P.', /^Expected parameters after "P\.", as in P\.5,10$/],
    ['P.0', /^Expected every cutoff to be an integer from 1 and up in "P\.0"$/],
    ['P.5,5', /^Expected distinct cutoffs, found a duplicate in "P\.5,5"$/],
    ['ndcg.x', /^Expected grade=gain pairs such as "ndcg\.1=3,2=9", got "x"$/],
  ])('rejects "%s"', (name, error) => {
    expect(errorOf([name])).toMatch(error);
  });

  it('reports the bad name even after good ones', () => {
    expect(errorOf(['map', 'P.5', 'nope'])).toMatch(/^Unsupported measure "nope"/);
  });
});
