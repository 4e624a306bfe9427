import { describe, expect, it } from 'vitest';
import { canarySection, engineRegressions, judgeOfMetric, type CanaryRun } from '../../../shared/canaries/canary-section.js';
import type { CanaryReport } from '../../../shared/schema/canary-report.js';
import type { CaseLine } from '../../../shared/schema/report.js';
import type { AnswerIdentity } from '../../../shared/schema/run-records.js';
import { canaryLine } from '../../support/simulated-canary.js';

/**
 * A canary of 30 requests with 4 documents each (120 items), judged by a
 * yes/no judge and a graded one: `yes(index)` and `grade(index)` give the
 * verdict of item `index`.
 */
function canaryLines(yes: (index: number) => boolean, grade: (index: number) => number): CaseLine[] {
  return Array.from({ length: 30 }, (_, request) => canaryLine(request, (index) => (yes(index) ? 'yes' : 'no'), grade));
}

const FP_A: AnswerIdentity = { model: 'judge-model', system_fingerprint: 'fp_a' };

function run(lines: CaseLine[], overrides: Partial<CanaryRun> = {}, identity: AnswerIdentity = FP_A): CanaryRun {
  const usage = {
    calls: 120,
    cache_hits: 0,
    retries: 0,
    errors: 0,
    input_tokens: 1000,
    output_tokens: 100,
    answered_by: [{ ...identity, calls: 120 }],
  };
  return {
    canary: { key: 'canaries/nightly/canary.jsonl', cases: 30, input_errors: 0 },
    alpha: 0.05,
    lines,
    usage: { chunk_relevance: usage, graded_relevance: usage },
    cases: { total: 30, evaluated: 30, failed: 0, missing: 0 },
    comparedWith: undefined,
    regressions: [],
    ...overrides,
  };
}

/** The judge's leaning: yes to the first two documents of a request, grade 2 to them and 0 to the rest. */
const truth = (index: number) => index % 4 < 2;
const baseline: CanaryReport = canarySection(run(canaryLines(truth, (index) => (truth(index) ? 2 : 0))));

const precisionDrop = { engine: 'search', metric: 'retrieval/llm_judged/chunk_relevance/precision', delta: -0.3, p_value: 0.0078 };
const ndcgDrop = { engine: 'search', metric: 'retrieval/ground_truth/ndcg@10', delta: -0.2, p_value: 0.01 };
const correctedDrop = {
  engine: 'search',
  metric: 'retrieval/ground_truth/average_precision',
  delta: -0.1,
  p_value: 0.02,
  judge: 'chunk_relevance',
};

describe('canarySection', () => {
  it('has nothing to compare on the first night, and says why', () => {
    expect(baseline).toMatchObject({
      compared_with: null,
      not_compared: 'the suite has no baseline and no earlier run to compare with',
      changed_judges: [],
      summary: [],
    });
    expect(baseline.judges.chunk_relevance).toMatchObject({
      scale: 'yes_no',
      failed: 0,
      changed: false,
      agreement: { pairs: 120, cohen_kappa: 1 },
    });
    expect(baseline.judges.chunk_relevance?.items).toHaveLength(120);
  });

  it('flags a judge whose verdicts turned down and whose fingerprint changed, and takes its own regressions from the engine', () => {
    // Prepare: 14 of the 60 yes verdicts turn no; grades of those fall by 2; another fingerprint answers
    const flipped = (index: number) => truth(index) && index < 28;
    const lines = canaryLines(
      (index) => truth(index) && !flipped(index),
      (index) => (truth(index) && !flipped(index) ? 2 : 0),
    );

    // Act
    const section = canarySection(
      run(
        lines,
        { comparedWith: { runId: 'r-0000000000000001', canaries: baseline }, regressions: [precisionDrop, ndcgDrop, correctedDrop] },
        {
          ...FP_A,
          system_fingerprint: 'fp_b',
        },
      ),
    );

    // Assess
    expect(section.compared_with).toBe('r-0000000000000001');
    expect(section.changed_judges).toEqual(['chunk_relevance', 'graded_relevance']);
    expect(section.judges.chunk_relevance?.drift).toMatchObject({
      test: 'mcnemar',
      paired: 120,
      changed: 14,
      lower: 14,
      higher: 0,
      verdicts_changed: true,
      identity_changed: true,
    });
    // 2 · 0.5^14, doubled by Holm for the smaller of two p-values
    expect(section.judges.chunk_relevance?.drift?.adjusted_p_value).toBeCloseTo(2 * 0.0001220703125, 12);
    // The judge's own metric goes to it; a ground-truth metric, and one human labels decided, stay the engine's.
    expect(section.attributed_regressions).toEqual([{ ...precisionDrop, judge: 'chunk_relevance' }]);
    expect(engineRegressions([precisionDrop, ndcgDrop, correctedDrop], section)).toEqual([ndcgDrop, correctedDrop]);
    expect(section.summary[0]).toBe(
      'judge changed: chunk_relevance: 14 of 120 canary verdicts flipped (14 from yes to no, 0 from no to yes), p = 0.0002 (McNemar, Holm over 2 judges); ' +
        'model identity was judge-model fp_a, now judge-model fp_b; put down to the judge: search retrieval/llm_judged/chunk_relevance/precision -0.3000 (p 0.0078)',
    );
    expect(section.summary[1]).toMatch(
      /^judge changed: graded_relevance: 14 of 120 canary grades changed \(14 lower, 0 higher\), p = 0\.000\d \(sign-flip test, Holm over 2 judges\); model identity/,
    );
  });

  it('flags a judge whose identity alone changed, and leaves its regressions with the engine: its canary judges as before', () => {
    // Act
    const section = canarySection(
      run(
        canaryLines(truth, (index) => (truth(index) ? 2 : 0)),
        { comparedWith: { runId: 'r-0000000000000001', canaries: baseline }, regressions: [precisionDrop] },
        {
          ...FP_A,
          system_fingerprint: 'fp_b',
        },
      ),
    );

    // Assess
    expect(section.changed_judges).toEqual(['chunk_relevance', 'graded_relevance']);
    expect(section.judges.chunk_relevance?.drift).toMatchObject({ changed: 0, verdicts_changed: false, identity_changed: true });
    expect(section.attributed_regressions).toEqual([]);
    expect(section.summary[0]).toBe(
      'judge changed: chunk_relevance: 0 of 120 canary verdicts flipped (0 from yes to no, 0 from no to yes), p = 1.0000 (McNemar, Holm over 2 judges); ' +
        'model identity was judge-model fp_a, now judge-model fp_b; its canary verdicts did not move beyond chance, so its metrics’ regressions stay the engines’',
    );
  });

  it('flags nothing when a few verdicts moved each way, as a served model does night to night', () => {
    // Prepare: items 1 and 6 turn, one each way
    const lines = canaryLines(
      (index) => (index === 1 ? false : index === 6 ? true : truth(index)),
      (index) => (truth(index) ? 2 : 0),
    );

    // Act
    const section = canarySection(
      run(lines, { comparedWith: { runId: 'r-0000000000000001', canaries: baseline }, regressions: [precisionDrop] }),
    );

    // Assess
    expect(section.changed_judges).toEqual([]);
    expect(section.judges.chunk_relevance?.drift).toMatchObject({ changed: 2, lower: 1, higher: 1, p_value: 1, verdicts_changed: false });
    expect(section.attributed_regressions).toEqual([]);
  });

  it('says why it compared nothing when the run compared with judged no canary set, or another one', () => {
    const none = canarySection(
      run(
        canaryLines(truth, () => 0),
        { comparedWith: { runId: 'r-0000000000000001', canaries: undefined } },
      ),
    );
    expect(none).toMatchObject({ compared_with: null, not_compared: 'the run compared with, r-0000000000000001, judged no canary set' });
    const other = canarySection(
      run(
        canaryLines(truth, () => 0),
        { comparedWith: { runId: 'r-0000000000000001', canaries: { ...baseline, dataset: 'canaries/nightly/old.jsonl' } } },
      ),
    );
    expect(other).toMatchObject({
      compared_with: null,
      not_compared: 'the run compared with, r-0000000000000001, judged another canary set, canaries/nightly/old.jsonl',
      changed_judges: [],
    });
    expect(other.judges.chunk_relevance?.drift).toBeUndefined();
  });
});

describe('judgeOfMetric', () => {
  it.each([
    ['retrieval/llm_judged/chunk_relevance/precision', 'chunk_relevance'],
    ['response/llm_judged/correctness@gpt-4o/rating', 'correctness@gpt-4o'],
    ['retrieval/lexical/graded_relevance/ndcg@10', 'graded_relevance'],
    ['retrieval/ground_truth/ndcg@10', undefined],
    ['response/human/correctness/rating', undefined],
  ])('%s is of %s', (metric, judge) => {
    expect(judgeOfMetric(metric)).toBe(judge);
  });
});
