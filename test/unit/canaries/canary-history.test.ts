import { describe, expect, it } from 'vitest';
import { canarySection } from '../../../shared/canaries/canary-section.js';
import { historyFileOf, suiteCardOf } from '../../../shared/history/history-file.js';
import { historyRowOf } from '../../../shared/history/history-row.js';
import { suitesPage } from '../../../shared/view/pages/suites-page.js';
import type { CaseLine } from '../../../shared/schema/report.js';
import { canaryLine } from '../../support/simulated-canary.js';
import { report } from '../history/factories.js';

/** Thirty requests' canary lines: yes to a request's first two documents, but for those `turned` gives. */
function lines(turned: (index: number) => boolean): CaseLine[] {
  return Array.from({ length: 30 }, (_, request) =>
    canaryLine(
      request,
      (index) => (index % 4 < 2 && !turned(index) ? 'yes' : 'no'),
      (index) => (index % 4 < 2 && !turned(index) ? 2 : 0),
    ),
  );
}

function canaryOf(turned: (index: number) => boolean, fingerprint: string, before?: ReturnType<typeof canarySection>) {
  const usage = { calls: 120, cache_hits: 0, retries: 0, errors: 0, input_tokens: 0, output_tokens: 0 };
  const answered = { ...usage, answered_by: [{ model: 'judge-model', system_fingerprint: fingerprint, calls: 120 }] };
  return canarySection({
    canary: { key: 'canaries/nightly/canary.jsonl', cases: 30, input_errors: 0 },
    alpha: 0.05,
    lines: lines(turned),
    usage: { chunk_relevance: answered, graded_relevance: answered },
    cases: { total: 30, evaluated: 30, failed: 0, missing: 0 },
    comparedWith: before === undefined ? undefined : { runId: 'r-00000000000000aa', canaries: before },
    regressions: [],
  });
}

const baseline = canaryOf(() => false, 'fp_a');
const changed = canaryOf((index) => index < 40, 'fp_b', baseline);

describe('the canary in a suite’s history', () => {
  it('keeps each judge’s numbers and flags without the items', () => {
    // Act
    const row = historyRowOf(report({ canaries: changed }));

    // Assess
    expect(row.canaries?.changed_judges).toEqual(['chunk_relevance', 'graded_relevance']);
    expect(row.canaries?.judges.chunk_relevance).toEqual({
      kappa: changed.judges.chunk_relevance?.agreement?.cohen_kappa,
      items: 120,
      changed_items: 20,
      paired: 120,
      p_value: changed.judges.chunk_relevance?.drift?.adjusted_p_value,
      answered_by: 'judge-model fp_b',
      identity_changed: true,
      changed: true,
    });
    expect(row.canaries?.summary).toEqual(changed.summary);
    expect(JSON.stringify(row)).not.toContain('"items":[');
    expect(historyRowOf(report()).canaries).toBeUndefined();
  });

  it("says on assay view's list of suites which judges the newest run found changed", () => {
    // Prepare
    const history = historyFileOf('nightly', [
      historyRowOf(report({ run_id: 'r-0000000000000001', canaries: baseline })),
      historyRowOf(report({ run_id: 'r-0000000000000002', created_at: '2026-11-04T02:00:00.000Z', canaries: changed })),
    ]);
    const card = suiteCardOf(history);
    if (card === undefined) throw new Error('no card');

    // Act
    const page = suitesPage([card], [], 'store');

    // Assess
    expect(page).toContain('<dt>Judge changed</dt>');
    expect(page).toContain('judge changed: chunk_relevance: 20 of 120 canary verdicts flipped (20 from yes to no, 0 from no to yes)');
    expect(suitesPage([{ ...card, newest: historyRowOf(report({ canaries: baseline })) }], [], 'store')).not.toContain('Judge changed');
  });
});
