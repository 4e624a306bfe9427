import { describe, expect, it } from 'vitest';
import { regressionGate } from '../../../cli/run/regression-gate.js';
import { enginesLeftOut, unpairedComparison } from '../../../shared/compare/unpaired-comparison.js';
import type { ReportComparison } from '../../../shared/schema/report.js';

const RUN_ID = 'r-00000000000000b2';

/** A comparison with the run r-...a1 as the report stores it: `engines` holds what paired. */
function comparison(kind: 'baseline' | 'previous', engines: ReportComparison['engines']): ReportComparison {
  return {
    baseline_run_id: 'r-00000000000000a1',
    baseline_kind: kind,
    adjustment: {
      method: 'holm',
      family: 'engine_metrics',
      tests: Object.values(engines).flatMap((metrics) => Object.keys(metrics)).length,
      alpha: 0.05,
    },
    regressions: [],
    engines,
  };
}

const PAIRED = {
  search: {
    'retrieval/ground_truth/ndcg@10': {
      a: 0.5,
      b: 0.5,
      delta: 0,
      relative_delta: 0,
      p_value: 1,
      adjusted_p_value: 1,
      n: 10,
      significant: false,
      regression: false,
    },
  },
} as unknown as ReportComparison['engines'];

describe('a comparison with which no case paired', () => {
  it.each([
    ['baseline', 'the baseline'],
    ['previous', 'the previous run'],
  ] as const)('is said, against %s, with the command that makes this run the baseline', (kind, against) => {
    // Act
    const said = unpairedComparison({ run_id: RUN_ID, comparison: comparison(kind, {}) });

    // Assess
    expect(said).toBe(
      `no case pairs with ${against} r-00000000000000a1 (cases pair by engine and request_id, and none of this run's is in it, as when the suite's dataset was replaced), ` +
        `so no regression can be found against it; if this dataset is the suite's from now on, make this run its baseline: assay baseline set ${RUN_ID}`,
    );
  });

  it('is nothing to say when some case paired, or when there was nothing to compare with (a suite’s first run)', () => {
    expect(unpairedComparison({ run_id: RUN_ID, comparison: comparison('baseline', PAIRED) })).toBeUndefined();
    expect(unpairedComparison({ run_id: RUN_ID })).toBeUndefined();
  });

  it('fails the --fail-on-regression gate, which passes a comparison that paired and found no regression, and a first run', () => {
    // Act
    const unpaired = regressionGate({ run_id: RUN_ID, comparison: comparison('baseline', {}) });
    const paired = regressionGate({ run_id: RUN_ID, comparison: comparison('baseline', PAIRED) });
    const first = regressionGate({ run_id: RUN_ID });

    // Assess
    expect(unpaired).toMatch(/^--fail-on-regression: no case pairs with the baseline r-00000000000000a1 /);
    expect(paired).toBeUndefined();
    expect(first).toBeUndefined();
  });
});

describe('engines a comparison left out', () => {
  /** This run's report: its engines, and a comparison in which `search` paired. */
  const report = (engines: readonly string[]) => ({
    run_id: RUN_ID,
    engines: Object.fromEntries(engines.map((engine) => [engine, {}])),
    comparison: comparison('previous', PAIRED),
  });

  it("names this run's engines with no case in the other run and the other run's not in this one", () => {
    // Act
    const said = enginesLeftOut(report(['search', 'hybrid-v2', 'dense-v2']), ['search', 'hybrid']);

    // Assess
    expect(said).toBe(
      "engines not compared with the previous run r-00000000000000a1, whose regressions cannot be seen: this run's dense-v2, hybrid-v2 have no case in it, " +
        `and its hybrid is not in this run (a renamed, new or dropped engine); if this run's engines are the suite's from now on, make this run its baseline: assay baseline set ${RUN_ID}`,
    );
  });

  it('names one side alone: an engine added, or one dropped', () => {
    expect(enginesLeftOut(report(['search', 'sparse']), ['search'])).toMatch(
      /: this run's sparse has no case in it \(a renamed, new or dropped engine\);/,
    );
    expect(enginesLeftOut(report(['search']), ['search', 'dense', 'hybrid'])).toMatch(
      /: its dense, hybrid are not in this run \(a renamed/,
    );
  });

  it('says nothing when every engine was compared, or when nothing was (said on its own), or without a comparison', () => {
    expect(enginesLeftOut(report(['search']), ['search'])).toBeUndefined();
    expect(enginesLeftOut({ ...report(['search', 'other']), comparison: comparison('baseline', {}) }, ['search'])).toBeUndefined();
    expect(enginesLeftOut({ run_id: RUN_ID, engines: { search: {} } }, ['search', 'other'])).toBeUndefined();
  });
});
