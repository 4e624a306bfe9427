import { describe, expect, it } from 'vitest';
import { expandRanking } from '../../../shared/schema/compact-ranking.js';
import { reportInOnePass, reportJson } from '../../../shared/report/aggregate.js';
import { renderHtml } from '../../../shared/report-render/html.js';
import { renderMarkdown } from '../../../shared/report-render/markdown.js';
import { agreementWarnings } from '../../../shared/report/report-agreement.js';
import { reportSchema, type JudgeAgreement } from '../../../shared/schema/report.js';
import type { CaseResult } from '../../../shared/schema/run-records.js';
import { manifest, result } from './factories.js';

const GRADED = 'retrieval/llm_judged/graded_relevance/ratings';

/** A judge's block with the given Cohen's kappa (null: undefined, with a reason); the other numbers do not matter here. */
function judgeAgreement(cohenKappa: number | null): JudgeAgreement {
  return {
    pairs: 12,
    exact_agreement: 0.5,
    cohen_kappa: cohenKappa,
    weighted_kappa: 0.5,
    binary: { level: 1, kappa: 0.5, agreement: 0.5, precision: 0.5, recall: 0.5 },
    confusion: {},
    reasons: cohenKappa === null ? { cohen_kappa: 'both raters put every item in the same single category, so chance agreement is 1' } : {},
  };
}

/** A result of one engine whose documents carry human grades and graded_relevance's grades. */
function labelledResult(caseId: string, documents: readonly (readonly [string, number, number])[]): CaseResult {
  return {
    ...result(caseId, { bm25: { [GRADED]: documents.map(([, , judged]) => judged) } }),
    outputs: { bm25: { retrieved: documents.map(([doc_uri, human], index) => ({ doc_uri, rank: index + 1, human_grade: human })) } },
  };
}

describe('agreementWarnings: run.min_agreement against Cohen kappa over the grades', () => {
  it.each<[string, number | null, number, RegExp | undefined]>([
    [
      'below the minimum',
      0.41234,
      0.6,
      /^graded_relevance: Cohen's kappa with the human labels is 0\.412 over 12 pairs, below run\.min_agreement 0\.6$/,
    ],
    ['at the minimum', 0.6, 0.6, undefined],
    ['above the minimum', 0.9, 0.6, undefined],
    ['just below, where rounding would reach it', 0.59999, 0.6, /kappa with the human labels is 0\.59999 over/],
    [
      'undefined, with its reason',
      null,
      -1,
      /^graded_relevance: agreement with the human labels is unknown \(both raters put every item in the same single category.*\), so run\.min_agreement -1 is not met$/,
    ],
  ])('warns when kappa is %s as it should', (_, kappa, minimum, expected) => {
    const warnings = agreementWarnings({ graded_relevance: judgeAgreement(kappa) }, minimum);

    if (expected === undefined) expect(warnings).toEqual([]);
    else expect(warnings).toEqual([expect.stringMatching(expected)]);
  });

  it('says when the minimum could not be checked, and says nothing without one', () => {
    expect(agreementWarnings(undefined, 0.5)).toEqual([
      expect.stringMatching(/^run\.min_agreement 0\.5 was not checked: the run has no human labels/),
    ]);
    expect(agreementWarnings({ graded_relevance: judgeAgreement(-0.5) }, undefined)).toEqual([]);
  });
});

describe('the report of a labelled run', () => {
  const ids = ['c1', 'c2'];
  // Human against judge: (0, 0), (2, 2), (1, 0) and (3, 3), (1, 1).
  const results = [
    labelledResult('c1', [
      ['a', 0, 0],
      ['b', 2, 2],
      ['c', 1, 0],
    ]),
    labelledResult('c2', [
      ['d', 3, 3],
      ['e', 1, 1],
    ]),
  ];

  it('holds each relevance judge agreement and the warning of run.min_agreement, in report.json, report.md and report.html', () => {
    // Act
    const report = reportInOnePass({
      manifest: manifest(ids, { config: { run: { min_agreement: 0.95 } } }),
      results,
      failures: [],
      caseIds: ids,
    });

    // Assess: 4 of 5 agree; r = (1, 2, 1, 1), c = (2, 1, 1, 1): p_e = (2 + 2 + 1 + 1)/25 = 0.24, κ = (0.8 - 0.24)/0.76 = 14/19
    const agreement = report.agreement?.graded_relevance;
    expect(agreement).toMatchObject({ pairs: 5, exact_agreement: 0.8, binary: { level: 1, precision: 1, recall: 0.75 } });
    expect(agreement?.cohen_kappa).toBeCloseTo(14 / 19, 12);
    expect(report.warnings).toEqual([
      expect.stringMatching(
        /^graded_relevance: Cohen's kappa with the human labels is 0\.737 over 5 pairs, below run\.min_agreement 0\.95$/,
      ),
    ]);
    expect(reportSchema.parse(JSON.parse(reportJson(report)))).toEqual(report);
    const markdown = renderMarkdown(report);
    expect(markdown).toContain('## Warnings\n\n- graded_relevance: Cohen');
    expect(markdown).toContain('| `graded_relevance` | 5 | 0.800 | 0.737 |');
    const html = renderHtml(report, []);
    expect(html).toContain('<section id="agreement"');
    expect(html).toContain('<section id="warnings"');
  });

  it('has neither block without human labels, and reads as before', () => {
    // Prepare: the same judgments, the documents unlabelled
    const unlabelled = results.map((one) => {
      const bm25 = one.outputs?.bm25;
      const list = bm25 === undefined ? [] : 'ranking' in bm25 ? expandRanking(bm25.ranking) : bm25.retrieved;
      return { ...one, outputs: { bm25: { retrieved: list.map(({ doc_uri, rank }) => ({ doc_uri, rank })) } } };
    });

    // Act
    const report = reportInOnePass({ manifest: manifest(ids), results: unlabelled, failures: [], caseIds: ids });

    // Assess
    expect(report).not.toHaveProperty('agreement');
    expect(report).not.toHaveProperty('warnings');
    expect(renderMarkdown(report)).not.toContain('Agreement with the human labels');
    expect(renderHtml(report, [])).not.toContain('id="agreement"');
  });
});
