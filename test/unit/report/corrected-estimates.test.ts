import { describe, expect, it } from 'vitest';
import { reportInOnePass } from '../../../shared/report/aggregate.js';
import { CorrectionTally } from '../../../shared/report/corrected-estimates.js';
import { renderHtml } from '../../../shared/report-render/html.js';
import { renderMarkdown } from '../../../shared/report-render/markdown.js';
import type { CaseLine } from '../../../shared/schema/report.js';
import type { CaseResult } from '../../../shared/schema/run-records.js';
import { addCase, correctedMean, emptyPairedSums, type Population } from '../../../shared/statistics/prediction-powered-mean.js';
import { manifest, result } from './factories.js';

/**
 * The ground-truth metrics corrected by a relevance judge, from the lines of
 * cases.jsonl: the judge's value of each metric on every case (written by the
 * judge worker as `retrieval/<source>/<judge>/qrels/<metric>`), the human
 * value on the labelled ones.
 */
const TWIN = 'retrieval/llm_judged/graded_relevance/qrels/ndcg@10';
const HUMAN = 'retrieval/ground_truth/ndcg@10';
const SETTINGS = { level: 0.95, minLabelled: 3 };

function line(caseId: string, engine: string, metrics: CaseLine['metrics']): CaseLine {
  return { case_id: caseId, request_id: caseId, engine, metrics };
}

function referenceOf(judge: readonly number[], human: readonly (number | undefined)[], population: Population = 'finite') {
  const sums = emptyPairedSums();
  judge.forEach((value, index) => addCase(sums, value, human[index]));
  const outcome = correctedMean(sums, { ...SETTINGS, population });
  if (!outcome.ok) throw new Error(outcome.reason);
  return outcome.value;
}

describe('the correction tally', () => {
  it('estimates each engine from its cases: the judge value on all, the human value on the labelled', () => {
    // Prepare
    const judge = [1, 0.63, 0.9, 0.8, 0.2];
    const human = [0.95, 0.3, 0.8, undefined, undefined];
    const tally = new CorrectionTally();
    judge.forEach((value, index) => tally.add(line(`c${index}`, 'bm25', { [TWIN]: value, ...(human[index] === undefined ? {} : { [HUMAN]: human[index] as number }) })));

    // Act
    const estimate = tally.estimates(SETTINGS)?.bm25?.[HUMAN]?.graded_relevance;

    // Assess
    const reference = referenceOf(judge, human);
    const { pValue: _humanP, ...humanOnly } = reference.humanOnly;
    const { pValue: _correctedP, ...corrected } = reference.corrected;
    expect(estimate).toEqual({
      labelled: 3,
      cases: 5,
      population: 'finite',
      level: 0.95,
      judge_only: reference.judgeOnly,
      human_only: humanOnly,
      corrected,
      bias: reference.bias,
      correlation: reference.correlation,
    });
  });

  it('says why there is no interval with too few labelled cases, and is left out of a run without labels', () => {
    const few = new CorrectionTally();
    few.add(line('c1', 'bm25', { [TWIN]: 0.5, [HUMAN]: 0.4 }));
    const unlabelled = new CorrectionTally();
    unlabelled.add(line('c1', 'bm25', { [TWIN]: 0.5 }));

    expect(few.estimates(SETTINGS)?.bm25?.[HUMAN]?.graded_relevance).toEqual({ labelled: 1, cases: 1, population: 'finite', reason: '1 labelled of 1 cases: fewer than the 3 an interval needs' });
    expect(unlabelled.estimates(SETTINGS)).toBeUndefined();
  });

  it('corrects each pair of engines on their per-case differences, a minus b, over the queries the cases stand for, with the p-value of no difference', () => {
    // Prepare: 4 cases of bm25 and dense; cases c0 to c2 labelled for both
    const bm25 = [0.9, 0.4, 0.7, 0.8];
    const dense = [0.5, 0.8, 0.7, 0.3];
    const human: ([number, number] | undefined)[] = [[1, 0.4], [0.5, 0.9], [0.7, 0.7], undefined];
    const tally = new CorrectionTally();
    bm25.forEach((value, index) => {
      const pair = human[index];
      tally.add(line(`c${index}`, 'bm25', { [TWIN]: value, ...(pair === undefined ? {} : { [HUMAN]: pair[0] }) }));
      tally.add(line(`c${index}`, 'dense', { [TWIN]: dense[index] as number, ...(pair === undefined ? {} : { [HUMAN]: pair[1] }) }));
    });

    // Act
    const differences = tally.differences(SETTINGS);

    // Assess
    const reference = referenceOf(
      bm25.map((value, index) => value - (dense[index] as number)),
      human.map((pair) => (pair === undefined ? undefined : pair[0] - pair[1])),
      'superpopulation',
    );
    const { pValue, ...corrected } = reference.corrected;
    expect(differences).toEqual([
      expect.objectContaining({ engines: ['bm25', 'dense'], metric: HUMAN, judge: 'graded_relevance', labelled: 3, cases: 4, population: 'superpopulation', corrected, judge_only: reference.judgeOnly, p_value: pValue }),
    ]);
  });
});

describe('the report of a run with labels and a relevance judge', () => {
  it('holds the corrected estimates in report.json, report.md and report.html', () => {
    // Prepare: 30 cases of one engine, the judge's NDCG on each, the human one on the first 12
    const results: CaseResult[] = Array.from({ length: 30 }, (_, index) => {
      const judged = ((index * 7) % 10) / 10;
      const metrics: Record<string, number> = { [TWIN]: judged };
      if (index < 12) metrics[HUMAN] = Math.max(0, judged - 0.15 + ((index % 3) - 1) * 0.05);
      return result(`c${String(index).padStart(2, '0')}`, { bm25: metrics });
    });
    const ids = results.map((case_) => case_.case_id);

    // Act
    const report = reportInOnePass({ manifest: manifest(ids), results, failures: [], caseIds: ids });

    // Assess
    expect(report.corrected?.bm25?.[HUMAN]?.graded_relevance).toMatchObject({ labelled: 12, cases: 30, level: 0.95 });
    expect(renderMarkdown(report)).toMatch(/## Ground truth corrected by the judges\n\n\| engine \| metric \| judge \|[^\n]*\n[^\n]*\n\| `bm25` \| `ndcg@10` \| `graded_relevance` \| \d\.\d{4} \| \d\.\d{4} \[\d\.\d{4}, \d\.\d{4}\] \(12\) \|/);
    expect(renderHtml(report, [])).toContain('<section id="corrected" aria-labelledby="corrected-heading">');
  });
});
