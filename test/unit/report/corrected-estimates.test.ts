import { describe, expect, it } from 'vitest';
import { reportInOnePass } from '../../../shared/report/aggregate.js';
import { CorrectionTally } from '../../../shared/report/corrected-estimates.js';
import { renderHtml } from '../../../shared/report-render/html.js';
import { renderMarkdown } from '../../../shared/report-render/markdown.js';
import type { CaseLine } from '../../../shared/schema/report.js';
import type { CaseResult } from '../../../shared/schema/run-records.js';
import { addCase, correctedMean, emptyPairedSums } from '../../../shared/statistics/prediction-powered-mean.js';
import { manifest, result } from './factories.js';

/**
 * A ground-truth metric corrected by a relevance judge: the judge's value of
 * the metric is the same formula with the judge's grades as the qrels,
 * pooled over the case's engines; the human value is the case's own
 * ground-truth metric, on the labelled cases only.
 */
const GRADED = 'retrieval/llm_judged/graded_relevance/ratings';
const CHUNK = 'retrieval/llm_judged/chunk_relevance/ratings';

function line(caseId: string, engine: string, documents: readonly string[], metrics: CaseLine['metrics']): CaseLine {
  return { case_id: caseId, request_id: caseId, engine, metrics, retrieved: documents.map((doc_uri, index) => ({ doc_uri, rank: index + 1 })) };
}

describe('the judge value of a ground-truth metric', () => {
  it('uses the judge grades pooled over the case engines as the qrels, its grades the gains of NDCG', () => {
    // Prepare: case c1, bm25 ranks a, b; dense ranks b, c. The judge grades a 0, b 3 (on bm25) and c 2 (on dense): qrels {a: 0, b: 3, c: 2}.
    const tally = new CorrectionTally([2]);
    tally.add(line('c1', 'bm25', ['a', 'b'], { [GRADED]: [0, 3], 'retrieval/ground_truth/ndcg@2': 0.5 }));
    tally.add(line('c1', 'dense', ['b', 'c'], { [GRADED]: [3, 2] }));

    // Act
    const estimates = tally.estimates({ level: 0.95, minLabelled: 3 });

    // Assess: bm25 DCG@2 = 0 + 3 / log2(3) = 1.8928; ideal 3 + 2 / log2(3) = 4.2619; 0.4441. dense: (3 + 2 / log2(3)) / ideal = 1
    const bm25 = estimates?.bm25?.['retrieval/ground_truth/ndcg@2']?.graded_relevance;
    const dense = estimates?.dense?.['retrieval/ground_truth/ndcg@2']?.graded_relevance;
    expect(bm25).toMatchObject({ labelled: 1, cases: 1, reason: expect.stringMatching(/^1 labelled of 1 cases/) });
    expect(dense).toMatchObject({ labelled: 0, cases: 1 });
    expect(estimates?.bm25?.['retrieval/ground_truth/average_precision']?.graded_relevance).toBeDefined();
  });

  it('estimates each engine from its cases: the judge value on all, the human value on the labelled', () => {
    // Prepare: 5 cases of one engine, each a, b ranked; the judge grades a and b; cases c1 to c3 labelled
    const judged = [[3, 0], [0, 2], [2, 2], [1, 0], [0, 0]] as const;
    const human = [1, 0.3, 0.8, undefined, undefined];
    const tally = new CorrectionTally([2]);
    judged.forEach((grades, index) => {
      const metrics: CaseLine['metrics'] = { [GRADED]: [...grades] };
      const value = human[index];
      if (value !== undefined) metrics['retrieval/ground_truth/ndcg@2'] = value;
      tally.add(line(`c${index + 1}`, 'bm25', ['a', 'b'], metrics));
    });

    // Act
    const estimate = tally.estimates({ level: 0.95, minLabelled: 3 })?.bm25?.['retrieval/ground_truth/ndcg@2']?.graded_relevance;

    // Assess: the judge's NDCG@2 per case: 1, 2/log2(3)/2 = 0.6309, 1, 1, 0 (no relevant grade: 0, as trec_eval)
    const expected = emptyPairedSums();
    [1, 2 / Math.log2(3) / 2, 1, 1, 0].forEach((judge, index) => addCase(expected, judge, human[index]));
    const reference = correctedMean(expected, { level: 0.95, minLabelled: 3 });
    if (!reference.ok) throw new Error(reference.reason);
    expect(estimate).toMatchObject({ labelled: 3, cases: 5, judge_only: reference.value.judgeOnly, corrected: reference.value.corrected, human_only: reference.value.humanOnly });
  });

  it('gives a yes/no judge the binary metrics only, "yes" relevant', () => {
    const tally = new CorrectionTally([1]);
    tally.add(line('c1', 'bm25', ['a', 'b'], { [CHUNK]: ['no', 'yes'], 'retrieval/ground_truth/reciprocal_rank': 0.5 }));

    const metrics = Object.keys(tally.estimates({ level: 0.95, minLabelled: 3 })?.bm25 ?? {});

    expect(metrics).toEqual(['retrieval/ground_truth/average_precision', 'retrieval/ground_truth/precision@1', 'retrieval/ground_truth/recall@1', 'retrieval/ground_truth/reciprocal_rank']);
  });

  it('corrects each pair of engines on their per-case differences, a minus b', () => {
    // Prepare: 4 cases; bm25 and dense rank a, b; the judge grades them per case; cases c1 to c3 labelled with both engines' ndcg@2
    const judged: [number, number][] = [[3, 0], [1, 2], [2, 2], [0, 3]];
    const human: ([number, number] | undefined)[] = [[1, 0.4], [0.5, 0.9], [0.7, 0.7], undefined];
    const tally = new CorrectionTally([2]);
    judged.forEach((grades, index) => {
      const pair = human[index];
      tally.add(line(`c${index + 1}`, 'bm25', ['a', 'b'], { [GRADED]: grades, ...(pair === undefined ? {} : { 'retrieval/ground_truth/ndcg@2': pair[0] }) }));
      tally.add(line(`c${index + 1}`, 'dense', ['b', 'a'], { [GRADED]: [grades[1], grades[0]], ...(pair === undefined ? {} : { 'retrieval/ground_truth/ndcg@2': pair[1] }) }));
    });

    // Act
    const differences = tally.differences({ level: 0.95, minLabelled: 3 }).filter((difference) => difference.metric === 'retrieval/ground_truth/ndcg@2');

    // Assess: the judge's NDCG@2 per case, bm25 minus dense, and the human differences on c1 to c3
    const ndcg = (first: number, second: number): number => {
      const dcg = first + second / Math.log2(3);
      const ideal = Math.max(first, second) + Math.min(first, second) / Math.log2(3);
      return ideal === 0 ? 0 : dcg / ideal;
    };
    const expected = emptyPairedSums();
    judged.forEach(([a, b], index) => addCase(expected, ndcg(a, b) - ndcg(b, a), human[index] === undefined ? undefined : (human[index]?.[0] ?? 0) - (human[index]?.[1] ?? 0)));
    const reference = correctedMean(expected, { level: 0.95, minLabelled: 3 });
    if (!reference.ok) throw new Error(reference.reason);
    expect(differences).toEqual([
      expect.objectContaining({ engines: ['bm25', 'dense'], judge: 'graded_relevance', labelled: 3, cases: 4, corrected: reference.value.corrected, judge_only: reference.value.judgeOnly }),
    ]);
  });

  it('is left out of a report without human labels', () => {
    const tally = new CorrectionTally([10]);
    tally.add(line('c1', 'bm25', ['a'], { [GRADED]: [2] }));

    expect(tally.estimates({ level: 0.95, minLabelled: 3 })).toBeUndefined();
  });
});

describe('the report of a run with labels and a relevance judge', () => {
  /** Cases of one engine ranking a, b, c, the judge grading them; the first `labelled` carry human grades (the judge's, less one on b). */
  function results(count: number, labelled: number): CaseResult[] {
    return Array.from({ length: count }, (_, index) => {
      const grades = [(index % 4) as number, ((index + 1) % 4) as number, ((index * 3) % 4) as number];
      const human = index < labelled ? grades.map((grade, position) => Math.max(0, grade - (position === 1 ? 1 : 0))) : undefined;
      return {
        ...result(`c${String(index).padStart(2, '0')}`, { bm25: { [GRADED]: grades, ...(human === undefined ? {} : { 'retrieval/ground_truth/ndcg@10': ndcgOf(human) }) } }),
        outputs: { bm25: { retrieved: ['a', 'b', 'c'].map((doc_uri, position) => ({ doc_uri, rank: position + 1, ...(human === undefined ? {} : { human_grade: human[position] }) })) } },
      };
    });
  }

  /** NDCG@10 of three ranked grades, the ideal over the same three (all the case's labels). */
  function ndcgOf(grades: readonly number[]): number {
    const dcg = (ordered: readonly number[]) => ordered.reduce((sum, grade, index) => sum + grade / Math.log2(index + 2), 0);
    const ideal = dcg([...grades].sort((left, right) => right - left));
    return ideal === 0 ? 0 : dcg(grades) / ideal;
  }

  it('holds the corrected estimates in report.json, report.md and report.html', () => {
    // Prepare
    const all = results(30, 12);
    const ids = all.map((case_) => case_.case_id);

    // Act
    const report = reportInOnePass({ manifest: manifest(ids), results: all, failures: [], caseIds: ids });

    // Assess
    const estimate = report.corrected?.bm25?.['retrieval/ground_truth/ndcg@10']?.graded_relevance;
    expect(estimate).toMatchObject({ labelled: 12, cases: 30, level: 0.95 });
    expect(estimate?.corrected?.low).toBeLessThanOrEqual(estimate?.corrected?.mean ?? Number.NaN);
    expect(renderMarkdown(report)).toContain('## Ground truth corrected by the judges');
    expect(renderMarkdown(report)).toMatch(/\| `bm25` \| `ndcg@10` \| `graded_relevance` \| \d\.\d{4} \| \d\.\d{4} \[\d\.\d{4}, \d\.\d{4}\] \(12\) \|/);
    expect(renderHtml(report, [])).toContain('<section id="corrected" aria-labelledby="corrected-heading">');
  });
});
