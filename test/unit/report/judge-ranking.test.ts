import { describe, expect, it } from 'vitest';
import { reportInOnePass } from '../../../shared/report/aggregate.js';
import { withJudgeRanking } from '../../../shared/report/judge-ranking.js';
import { renderHtml } from '../../../shared/report-render/html.js';
import { renderMarkdown } from '../../../shared/report-render/markdown.js';
import type { CaseResult } from '../../../shared/schema/run-records.js';
import { seededRandom } from '../../../shared/statistics/seeded-random.js';
import { manifest, result } from './factories.js';

/**
 * A run judged by two relevance judges (model variants), 40 cases of two
 * engines with the human nDCG@10 on the first 12: the report ranks the judges
 * by the corrected interval each gives.
 */
const HUMAN = 'retrieval/ground_truth/ndcg@10';
const twin = (judge: string): string => `retrieval/llm_judged/${judge}/qrels/ndcg@10`;
const SHARP = 'graded_relevance@sharp';
const NOISY = 'graded_relevance@noisy';

function run(): CaseResult[] {
  const random = seededRandom(31);
  const uniform = (): number => random.nextUint32() / 2 ** 32;
  return Array.from({ length: 40 }, (_, index) => {
    const engines: Record<string, Record<string, number>> = {};
    for (const engine of ['bm25', 'dense']) {
      const human = uniform();
      // The sharp judge follows the human values (0.2 high); the noisy one barely.
      const metrics: Record<string, number> = {
        [twin(SHARP)]: Math.min(1, human + 0.2 + (uniform() - 0.5) * 0.05),
        [twin(NOISY)]: 0.3 * human + 0.7 * uniform(),
      };
      if (index < 12) metrics[HUMAN] = human;
      engines[engine] = metrics;
    }
    return result(`c${String(index).padStart(2, '0')}`, engines);
  });
}

describe('the judge ranking of a report', () => {
  it('ranks the judge whose values follow the human ones first, with what each is worth in human labels', () => {
    // Prepare
    const results = run();
    const ids = results.map((one) => one.case_id);

    // Act
    const report = reportInOnePass({ manifest: manifest(ids), results, failures: [], caseIds: ids });

    // Assess
    const ranking = report.judge_ranking;
    expect(ranking).toMatchObject({ metric: HUMAN, level: 0.95, currency: null });
    expect(ranking?.by_width.map((judge) => judge.name)).toEqual([SHARP, NOISY]);
    const [sharp, noisy] = ranking?.by_width ?? [];
    expect(sharp?.estimates).toBe(2);
    expect(sharp?.width_ratio).toBeLessThan(0.5);
    expect(noisy?.width_ratio).toBeGreaterThan(0.7);
    expect(sharp?.equivalent_labels).toBeGreaterThan(2 * (noisy?.equivalent_labels ?? Number.POSITIVE_INFINITY));
    expect(sharp?.labelled).toBe(12);
    // Its mean width is the mean of the engines' corrected widths.
    const widths = ['bm25', 'dense'].map((engine) => {
      const corrected = report.corrected?.[engine]?.[HUMAN]?.[SHARP]?.corrected;
      return (corrected?.high ?? Number.NaN) - (corrected?.low ?? Number.NaN);
    });
    expect(sharp?.width).toBeCloseTo(((widths[0] as number) + (widths[1] as number)) / 2, 12);
    expect(renderMarkdown(report)).toContain('## Choosing a judge');
    expect(renderMarkdown(report)).toMatch(/\| `graded_relevance@sharp` \| 0\.\d{4} \| 0\.\d{4} \| 0\.\d{2} \| 12\.0 \|/);
    expect(renderHtml(report, [])).toContain('<section id="judge-ranking" aria-labelledby="judge-ranking-heading">');
  });

  it("ranks by human labels gained per unit of each judge's cost, from the report's judge cost", () => {
    const results = run();
    const ids = results.map((one) => one.case_id);
    const report = reportInOnePass({ manifest: manifest(ids), results, failures: [], caseIds: ids });

    // Act: the sharp judge costs 100 times the noisy one
    const costed = withJudgeRanking({
      ...report,
      judge_cost: {
        currency: 'USD',
        total: 10.1,
        models: {},
        judges: { [SHARP]: { cost: 10 }, [NOISY]: { cost: 0.1 } },
        unpriced_models: [],
      },
    });

    // Assess
    const { by_width: byWidth, by_cost: byCost, currency } = costed.judge_ranking ?? { by_width: [], by_cost: [], currency: null };
    expect(currency).toBe('USD');
    const sharp = byWidth.find((judge) => judge.name === SHARP);
    expect(sharp?.labels_per_cost).toBeCloseTo(((sharp?.equivalent_labels ?? 0) - 12) / 10, 12);
    const noisy = byWidth.find((judge) => judge.name === NOISY);
    expect(byCost.map((judge) => judge.name)).toEqual(
      (noisy?.labels_per_cost ?? 0) > (sharp?.labels_per_cost ?? 0) ? [NOISY, SHARP] : [SHARP, NOISY],
    );
    expect(renderMarkdown(costed)).toContain(
      '| judge | width | human only | ratio | labelled | worth (labels) | bias | kappa | cost (USD) | labels per cost |',
    );
  });

  it('is left out with one relevance judge', () => {
    const results = run().map((one) => ({
      ...one,
      engines: Object.fromEntries(
        Object.entries(one.engines).map(([engine, metrics]) => [
          engine,
          Object.fromEntries(Object.entries(metrics).filter(([name]) => !name.includes(NOISY))),
        ]),
      ),
    }));
    const ids = results.map((one) => one.case_id);

    const report = reportInOnePass({ manifest: manifest(ids), results, failures: [], caseIds: ids });

    expect(report.corrected).toBeDefined();
    expect(report.judge_ranking).toBeUndefined();
    expect(renderMarkdown(report)).not.toContain('Choosing a judge');
  });
});
