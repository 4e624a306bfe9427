import { describe, expect, it } from 'vitest';
import type { MetricComparison } from '../../../shared/schema/report.js';
import type { RunComparison } from '../../../shared/schema/compare-json.js';
import { chooseComparedChange, rankedChanges, type CompareChoice } from '../../../shared/view/compare-choice.js';

const NDCG = 'retrieval/ground_truth/ndcg@10';
const RR = 'retrieval/ground_truth/reciprocal_rank';
const CORRECTNESS = 'response/llm_judged/correctness/rating';
/** A compared number that is no headline: a judge's tokens per case, where more is not better. */
const TOKENS = 'response/llm_judged/correctness/input_tokens';

/** One metric's comparison with the given delta; significant when p < 0.05, as compareRuns decides with its defaults. */
function change(delta: number, pValue = delta === 0 ? 1 : 0.01): MetricComparison {
  return {
    a: 0.5,
    b: 0.5 + delta,
    delta,
    relative_delta: delta / 0.5,
    p_value: pValue,
    t_test_p_value: pValue,
    significant: pValue < 0.05,
    n: 12,
    wins: delta > 0 ? 12 : 0,
    losses: delta < 0 ? 12 : 0,
    ties: delta === 0 ? 12 : 0,
    delta_interval: { low: delta, high: delta },
  };
}

function comparison(engines: Record<string, Record<string, MetricComparison>>): RunComparison {
  return { adjustment: { method: 'none', family: 'engine_metrics', tests: 0, alpha: 0.05 }, engines };
}

/** A row of the tables below: the comparison's engines and what the choice must have. */
interface ChoiceCase {
  readonly name: string;
  readonly engines: Record<string, Record<string, MetricComparison>>;
  readonly chosen: Partial<CompareChoice>;
}

describe('the engine and metric the compare page opens on', () => {
  it.each<ChoiceCase>([
    {
      name: 'the moved engine, not the first by name that did not move',
      engines: { alpha: { [NDCG]: change(0), [RR]: change(0) }, beta: { [NDCG]: change(0.2351), [RR]: change(0.3194) } },
      chosen: { engine: 'beta', metric: RR, reason: 'largest-significant-change', among: 'all' },
    },
    {
      name: 'a significant change before a larger one that is not',
      engines: { alpha: { [NDCG]: change(-0.4, 0.2) }, beta: { [NDCG]: change(0.05, 0.01) } },
      chosen: { engine: 'beta', metric: NDCG, reason: 'largest-significant-change', among: 'all' },
    },
    {
      name: 'the largest change when none is significant',
      engines: { alpha: { [NDCG]: change(-0.1, 0.3) }, beta: { [NDCG]: change(0.2, 0.4) } },
      chosen: { engine: 'beta', metric: NDCG, reason: 'largest-change', among: 'all' },
    },
    {
      name: 'a drop before a gain of the same size',
      engines: { alpha: { [NDCG]: change(0.25) }, beta: { [NDCG]: change(-0.25) } },
      chosen: { engine: 'beta', metric: NDCG, reason: 'largest-significant-change', among: 'all' },
    },
    {
      name: 'the smaller p-value between changes of one size',
      engines: { alpha: { [NDCG]: change(-0.25, 0.04) }, beta: { [NDCG]: change(-0.25, 0.001) } },
      chosen: { engine: 'beta', metric: NDCG, reason: 'largest-significant-change', among: 'all' },
    },
    {
      name: 'ndcg@10 of the first engine when nothing moved',
      engines: { alpha: { [CORRECTNESS]: change(0), [NDCG]: change(0) }, beta: { [NDCG]: change(0) } },
      chosen: { engine: 'alpha', metric: NDCG, reason: 'no-change', among: 'all' },
    },
    {
      name: 'a headline metric before a larger change of a number that is none',
      engines: { alpha: { [TOKENS]: change(-120), [CORRECTNESS]: change(-0.1) } },
      chosen: { engine: 'alpha', metric: CORRECTNESS, reason: 'largest-significant-change', among: 'all' },
    },
    {
      name: 'any compared number when the runs have no headline metric',
      engines: { alpha: { [TOKENS]: change(-120) } },
      chosen: { engine: 'alpha', metric: TOKENS, reason: 'largest-significant-change', among: 'all' },
    },
  ])('$name', ({ engines, chosen }) => {
    expect(chooseComparedChange(comparison(engines), {})).toMatchObject(chosen);
  });

  const engines = { alpha: { [NDCG]: change(0), [RR]: change(-0.1) }, beta: { [NDCG]: change(0.2), [RR]: change(0.3) } };

  it.each<{ asked: { engine?: string; metric?: string }; chosen: Partial<CompareChoice> }>([
    { asked: { engine: 'alpha', metric: NDCG }, chosen: { engine: 'alpha', metric: NDCG, reason: 'asked', among: 'engine' } },
    { asked: { engine: 'alpha' }, chosen: { engine: 'alpha', metric: RR, reason: 'largest-significant-change', among: 'engine' } },
    { asked: { metric: NDCG }, chosen: { engine: 'beta', metric: NDCG, reason: 'largest-significant-change', among: 'metric' } },
    {
      asked: { metric: TOKENS },
      chosen: { engine: 'beta', metric: RR, problem: `Metric "${TOKENS}" is not compared for any engine; showing ${RR}.` },
    },
    {
      asked: { engine: 'gamma', metric: NDCG },
      chosen: { engine: 'beta', metric: NDCG, problem: 'Engine "gamma" is not compared in both runs; showing beta.' },
    },
    {
      asked: { engine: 'constructor' },
      chosen: { engine: 'beta', metric: RR, problem: 'Engine "constructor" is not compared in both runs; showing beta.' },
    },
    {
      asked: { engine: 'alpha', metric: TOKENS },
      chosen: { engine: 'alpha', metric: RR, problem: `Metric "${TOKENS}" is not compared for alpha; showing ${RR}.` },
    },
  ])('what the address asks for wins: $asked', ({ asked, chosen }) => {
    expect(chooseComparedChange(comparison(engines), asked)).toMatchObject(chosen);
  });

  it('is none when the runs have no engine in common', () => {
    expect(chooseComparedChange(comparison({}), { engine: 'alpha' })).toBeUndefined();
  });

  it('ranks every headline change, significant ones first, larger first, drops before gains of one size', () => {
    // Prepare
    const ranked = comparison({
      alpha: { [NDCG]: change(-0.3, 0.2), [RR]: change(0.1), [TOKENS]: change(500) },
      beta: { [NDCG]: change(-0.1), [RR]: change(0), [CORRECTNESS]: change(0.1) },
    });

    // Act
    const order = rankedChanges(ranked).map((ranking) => `${ranking.engine} ${ranking.metric}`);

    // Assess: the drop of 0.1 before the gains of 0.1, which tie on p = 0.01 and go by engine name; the larger drop is not significant; tokens are no headline
    expect(order).toEqual([`beta ${NDCG}`, `alpha ${RR}`, `beta ${CORRECTNESS}`, `alpha ${NDCG}`, `beta ${RR}`]);
  });
});
