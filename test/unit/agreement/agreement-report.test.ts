import { describe, expect, it } from 'vitest';
import { buildAgreementReport } from '../../../shared/agreement/agreement-report.js';
import { DEFAULT_MEASURE_OPTIONS } from '../../../shared/metrics/registry.js';
import { measure, namedRun, qrels, reportOf } from './factories.js';

/** Human grades 0,0,1,1,2,2 against judge grades 0,1,1,2,2,2 on documents a-f of one topic. */
const human = qrels([['q1', { a: 0, b: 0, c: 1, d: 1, e: 2, f: 2 }]]);
const judge = qrels([['q1', { a: 0, b: 1, c: 1, d: 2, e: 2, f: 2 }]]);

describe('buildAgreementReport, label by label', () => {
  it('computes agreement, kappa and weighted kappa from the confusion matrix', () => {
    // Act
    const report = reportOf(human, judge);

    // Assess. Confusion rows (human) [1 1 0] [0 1 1] [0 0 2]: r = (2, 2, 2), c = (1, 2, 3), N = 6.
    // Exact agreement 4/6. κ = 1 - N·2/(N² - Σ r_i c_i) = 1 - 12/(36 - 12) = 0.5.
    // κ_w: Σ w C = 1 + 1 = 2, Σ w r c = 28 + 8 + 12 = 48, 1 - 12/48 = 0.75.
    expect(report).toMatchObject({ pairs: 6, human_only: 0, judge_only: 0, categories: [0, 1, 2], cohen_kappa: 0.5, weighted_kappa: 0.75 });
    expect(report.exact_agreement).toBeCloseTo(4 / 6, 15);
    expect(report.confusion).toEqual({ '0': { '0': 1, '1': 1, '2': 0 }, '1': { '0': 0, '1': 1, '2': 1 }, '2': { '0': 0, '1': 0, '2': 2 } });
    expect(report.reasons).toEqual({});
  });

  it('cuts grades at the level for the binary statistics, the human reading as the truth', () => {
    // Act
    const report = reportOf(human, judge, { measureOptions: { ...DEFAULT_MEASURE_OPTIONS, relevanceLevel: 2 } });

    // Assess: relevant = grade >= 2. Human: e, f; judge: d, e, f. Table [[3, 1], [0, 2]]:
    // agreement 5/6, precision 2/3, recall 2/2; p_e = (4·3 + 2·3)/36 = 0.5, κ = (5/6 - 0.5)/0.5 = 2/3.
    expect(report.binary.level).toBe(2);
    expect(report.binary.agreement).toBeCloseTo(5 / 6, 15);
    expect(report.binary.precision).toBeCloseTo(2 / 3, 15);
    expect(report.binary.recall).toBe(1);
    expect(report.binary.kappa).toBeCloseTo(2 / 3, 15);
  });

  it('gives the 95% intervals of the three kappas from the same seeded resamples', () => {
    const report = reportOf(human, judge, { resamples: 300, seed: 4 });
    const again = reportOf(human, judge, { resamples: 300, seed: 4 });
    const otherSeed = reportOf(human, judge, { resamples: 300, seed: 5 });

    expect(again).toEqual(report);
    expect(otherSeed.intervals.cohen_kappa).not.toEqual(report.intervals.cohen_kappa);
    expect(report.intervals).toMatchObject({ level: 0.95, resamples: 300, seed: 4 });
    for (const interval of [report.intervals.cohen_kappa, report.intervals.weighted_kappa, report.intervals.binary_kappa]) {
      expect(interval?.low).toBeLessThanOrEqual(interval?.high ?? Number.NaN);
      expect(interval?.high).toBeLessThanOrEqual(1);
      // A resample of six pairs can hold one grade only on both sides: those are left out.
      expect(interval?.resamples_used).toBeLessThanOrEqual(300);
    }
    expect(report.intervals.cohen_kappa?.low).toBeLessThan(0.5);
  });

  it('gives null with a reason, never NaN, when no pair is labelled in both files', () => {
    // Act
    const report = reportOf(qrels([['q1', { a: 1 }]]), qrels([['q2', { a: 1 }]]));

    // Assess
    expect(report).toMatchObject({
      pairs: 0,
      human_only: 1,
      judge_only: 1,
      exact_agreement: null,
      cohen_kappa: null,
      weighted_kappa: null,
    });
    expect(report.binary).toEqual({ level: 1, kappa: null, agreement: null, precision: null, recall: null });
    expect(report.intervals).toMatchObject({ cohen_kappa: null, weighted_kappa: null, binary_kappa: null });
    expect(Object.keys(report.reasons).sort()).toEqual([
      'binary.agreement',
      'binary.kappa',
      'binary.precision',
      'binary.recall',
      'cohen_kappa',
      'exact_agreement',
      'intervals.binary_kappa',
      'intervals.cohen_kappa',
      'intervals.weighted_kappa',
      'weighted_kappa',
    ]);
    expect(JSON.stringify(report)).not.toContain('NaN');
  });

  it('gives null kappas with a reason when both files use one and the same grade', () => {
    const report = reportOf(qrels([['q1', { a: 0, b: 0 }]]), qrels([['q1', { a: 0, b: 0 }]]));

    expect(report).toMatchObject({ exact_agreement: 1, cohen_kappa: null, weighted_kappa: null });
    expect(report.reasons.cohen_kappa).toMatch(/same single category/);
    expect(report.reasons['binary.precision']).toMatch(/judge grades no pair 1 or higher/);
    expect(report.reasons['binary.recall']).toMatch(/human labels grade no pair 1 or higher/);
    expect(report.reasons['intervals.cohen_kappa']).toMatch(/same single category/);
  });
});

describe('buildAgreementReport, system rankings', () => {
  // P@1 per topic. Human: q1 {a: 1, b: 0}, q2 {x: 1, y: 0}; judge: q1 {a: 1, b: 1}, q2 {x: 1, y: 0}.
  const humanQrels = qrels([
    ['q1', { a: 1, b: 0 }],
    ['q2', { x: 1, y: 0 }],
  ]);
  const judgeQrels = qrels([
    ['q1', { a: 1, b: 1 }],
    ['q2', { x: 1, y: 0 }],
  ]);
  const runA = namedRun('A', [
    ['q1', ['a', 'b']],
    ['q2', ['x', 'y']],
  ]);
  const runB = namedRun('B', [
    ['q1', ['b', 'a']],
    ['q2', ['y', 'x']],
  ]);
  const runC = namedRun('C', [
    ['q1', ['a']],
    ['q2', ['y']],
  ]);

  it('scores every run under both qrels and correlates the two lists', () => {
    // Act
    const report = reportOf(humanQrels, judgeQrels, { runs: [runA, runB, runC], resamples: 1000 });

    // Assess. Human P@1: A (1 + 1)/2 = 1, B 0, C (1 + 0)/2 = 0.5; judge: A 1, B (1 + 0)/2 = 0.5, C 0.5.
    // Pairs: (A, B) and (A, C) concordant, (B, C) tied in the judge's list: τ_b = 2/√(3·2).
    // Ranks (3, 1, 2) and (3, 1.5, 1.5): ρ = 1.5/√(2·1.5).
    expect(report.systems).toEqual({
      measure: 'P_1',
      n: 3,
      kendall_tau: expect.closeTo(2 / Math.sqrt(6), 15),
      spearman_rho: expect.closeTo(1.5 / Math.sqrt(3), 15),
      human: { A: 1, B: 0, C: 0.5 },
      judge: { A: 1, B: 0.5, C: 0.5 },
    });
    // Resampled topics: {q1, q1} (1 in 4) ties every run under the judge, tau undefined, left out;
    // {q2, q2} (1 in 4) gives human (1, 0, 0) and judge (1, 0, 0), tau 1; {q1, q2} gives the full data's tau.
    const interval = report.intervals.kendall_tau;
    expect(interval?.low).toBeCloseTo(2 / Math.sqrt(6), 15);
    expect(interval?.high).toBe(1);
    expect(interval?.resamples_used).toBeGreaterThan(700);
    expect(interval?.resamples_used).toBeLessThan(800);
  });

  it('averages each run over the topics it has results for, and leaves out resamples where a run has none', () => {
    // Prepare: D has no results for q2, so it is scored on q1 only (trec_eval without -c)
    const runD = namedRun('D', [['q1', ['b']]]);

    // Act
    const report = reportOf(humanQrels, judgeQrels, { runs: [runA, runB, runD], resamples: 1000 });

    // Assess: D human 0, judge 1. (A, B) concordant, (A, D) tied in the judge's list, (B, D) in the
    // human's: τ_b = 1/√(2·2). Resamples {q2, q2} (1 in 4) leave D without a topic, {q1, q1} (1 in 4)
    // tie every run under the judge: both left out; {q1, q2} gives 0.5 again.
    expect(report.systems?.human).toEqual({ A: 1, B: 0, D: 0 });
    expect(report.systems?.judge).toEqual({ A: 1, B: 0.5, D: 1 });
    expect(report.systems?.kendall_tau).toBe(0.5);
    expect(report.intervals.kendall_tau).toMatchObject({ low: 0.5, high: 0.5 });
    expect(report.intervals.kendall_tau?.resamples_used).toBeGreaterThan(450);
    expect(report.intervals.kendall_tau?.resamples_used).toBeLessThan(550);
  });

  it('gives null tau with a reason when one label set ties every run', () => {
    const runD = namedRun('D', [['q1', ['b']]]);

    const report = reportOf(humanQrels, judgeQrels, { runs: [runA, runD] });

    expect(report.systems).toMatchObject({ kendall_tau: null, spearman_rho: null, judge: { A: 1, D: 1 } });
    expect(report.reasons['systems.kendall_tau']).toBe('every run has the same P_1 under the judge qrels');
    expect(report.intervals.kendall_tau).toBeNull();
  });

  it('gives null tau and rho with a reason for fewer than 2 runs', () => {
    const report = reportOf(humanQrels, judgeQrels, { runs: [runA] });

    expect(report.systems).toMatchObject({ n: 1, kendall_tau: null, spearman_rho: null, human: { A: 1 } });
    expect(report.reasons['systems.kendall_tau']).toBe('needs at least 2 runs to rank, got 1');
    expect(report.reasons['systems.spearman_rho']).toBe('needs at least 2 runs to rank, got 1');
    expect(report.reasons['intervals.kendall_tau']).toBe('needs at least 2 runs to rank, got 1');
  });

  it('leaves systems out without runs', () => {
    const report = reportOf(humanQrels, judgeQrels);

    expect(report.systems).toBeUndefined();
    expect(report.intervals.kendall_tau).toBeUndefined();
  });

  it.each([
    ['two runs with one name', [runA, runA], /Two runs are named A/],
    [
      'a run with no topic in the qrels',
      [runA, namedRun('E', [['q9', ['a']]])],
      /Run E against the human qrels: No topic has both judgments and results/,
    ],
  ])('refuses %s', (_described, runs, error) => {
    const result = buildAgreementReport({
      human: humanQrels,
      judge: judgeQrels,
      runs,
      measure: measure('P.1'),
      measureOptions: DEFAULT_MEASURE_OPTIONS,
      resamples: 10,
      seed: 0,
    });

    expect(result.ok).toBe(false);
    expect(result.ok ? '' : result.error).toMatch(error);
  });
});
