import { describe, expect, it } from 'vitest';
import { reportInOnePass } from '../../../shared/report/aggregate.js';
import { renderMarkdown } from '../../../shared/report-render/markdown.js';
import type { Report } from '../../../shared/schema/report.js';
import { failure, manifest, result, usage } from './factories.js';

const CORRECTNESS = 'response/llm_judged/correctness/rating';
const NDCG = 'retrieval/ground_truth/ndcg@10';

/** Three cases evaluated (ndcg labelled on two), one failed, one missing. */
function sampleReport(): Report {
  const ids = ['c1', 'c2', 'c3', 'c4', 'c5'];
  const results = [
    result(
      'c1',
      { bm25: { [CORRECTNESS]: 'yes', [NDCG]: 0.5 }, dense: { [CORRECTNESS]: 'yes', [NDCG]: 1 } },
      { correctness: usage({ calls: 2, cache_hits: 1, input_tokens: 300, output_tokens: 40 }) },
    ),
    result('c2', { bm25: { [CORRECTNESS]: 'no', [NDCG]: 0.25 }, dense: { [CORRECTNESS]: 'yes', [NDCG]: 0.5 } }),
    result('c3', { bm25: { [CORRECTNESS]: 'yes' }, dense: { [CORRECTNESS]: 'no' } }),
  ];
  return reportInOnePass({ manifest: manifest(ids), results, failures: [failure('c4', 'judge timed out\nafter 3 tries')], caseIds: ids });
}

describe('renderMarkdown', () => {
  it('has a title with the suite and run, and the case counts', () => {
    const markdown = renderMarkdown(sampleReport());

    expect(markdown.startsWith('# faq: run `run-1`\n')).toBe(true);
    expect(markdown).toContain('**Cases:** 5 total, 3 evaluated, 1 failed, 1 missing');
  });

  it('shows the key metrics per engine: averages with 4 decimals, percentages with one', () => {
    const markdown = renderMarkdown(sampleReport());

    expect(markdown).toContain('| metric | `bm25` | `dense` |\n| --- | ---: | ---: |');
    // ndcg over the 2 labelled cases: bm25 (0.5 + 0.25) / 2 = 0.375, dense (1 + 0.5) / 2 = 0.75
    expect(markdown).toContain(`| \`${NDCG}/average\` | 0.3750 (n=2) | 0.7500 (n=2) |`);
    // correctness: bm25 2 yes of 3 = 66.7%, dense 2 of 3 = 66.7%
    expect(markdown).toContain(`| \`${CORRECTNESS}/percentage\` | 66.7% | 66.7% |`);
    expect(markdown).not.toContain('/count');
  });

  it('shows judge usage and the failed and missing cases', () => {
    const markdown = renderMarkdown(sampleReport());

    expect(markdown).toContain('| judge | calls | cache hits | retries | errors | input tokens | output tokens |');
    expect(markdown).toContain('| `correctness` | 2 | 1 | 0 | 0 | 300 | 40 |');
    expect(markdown).toContain('## Failed cases (1)\n\n- `c4`: judge timed out after 3 tries');
    expect(markdown).toContain('## Missing cases (1)\n\n- `c5`');
  });

  it('says how many requests the judge server refused as over its rate limit, summed over the cases, and nothing when it refused none', () => {
    // Prepare: two cases whose judgments were refused 3 and 2 times, of 2 + 5 and 1 + 2 requests
    const ids = ['c1', 'c2'];
    const results = [
      result('c1', { bm25: { [CORRECTNESS]: 'yes' } }, { correctness: usage({ calls: 2, retries: 5, rate_limited: 3 }) }),
      result('c2', { bm25: { [CORRECTNESS]: 'no' } }, { correctness: usage({ calls: 1, retries: 2, rate_limited: 2 }) }),
    ];

    // Act
    const report = reportInOnePass({ manifest: manifest(ids), results, failures: [], caseIds: ids });
    const markdown = renderMarkdown(report);

    // Assess
    expect(report.judges.correctness).toMatchObject({ calls: 3, retries: 7, rate_limited: 5 });
    expect(markdown).toContain('The judge server refused 5 of 10 requests as over its rate limit');
    expect(renderMarkdown(sampleReport())).not.toContain('rate limit');
  });

  it('lists the judgments that ended in error apart from the failed cases, and shows the n of the judge they left short', () => {
    // Prepare: c1 and c2 judged; correctness on c3 ended in error on both engines (its ndcg still counts), and
    // on bm25 the case's text holds a backtick and a pipe
    const ids = ['c1', 'c2', 'c3'];
    const inError = { [CORRECTNESS]: null, 'response/llm_judged/correctness/error_message': 'not JSON: `{` | line\n2' };
    const results = [
      result('c1', { bm25: { [CORRECTNESS]: 'yes', [NDCG]: 0.5 }, dense: { [CORRECTNESS]: 'yes', [NDCG]: 1 } }),
      result('c2', { bm25: { [CORRECTNESS]: 'no', [NDCG]: 0.25 }, dense: { [CORRECTNESS]: 'yes', [NDCG]: 0.5 } }),
      result('c3', { bm25: { ...inError, [NDCG]: 0 }, dense: { ...inError, [NDCG]: 0 } }),
    ];

    // Act
    const markdown = renderMarkdown(reportInOnePass({ manifest: manifest(ids), results, failures: [], caseIds: ids }));

    // Assess: correctness over 2 of each engine's 3 cases, ndcg over all 3
    expect(markdown).toContain('**Cases:** 3 total, 3 evaluated, 0 failed, 0 missing, 1 lacking a judgment');
    expect(markdown).toContain(`| \`${CORRECTNESS}/percentage\` | 50.0% (n=2) | 100.0% (n=2) |`);
    expect(markdown).toContain(`| \`${NDCG}/average\` | 0.2500 | 0.5000 |`);
    expect(markdown).toContain(
      '## Cases lacking a judgment (1)\n\n- `c3`: judge `correctness` (engines `bm25`, `dense`): not JSON: `{` | line 2',
    );
    expect(markdown).not.toContain('## Failed cases');
  });

  it('lists at most 20 missing cases, then says how many more', () => {
    const ids = Array.from({ length: 23 }, (_, index) => `case-${String(index).padStart(2, '0')}`);

    const markdown = renderMarkdown(reportInOnePass({ manifest: manifest(ids), results: [], failures: [], caseIds: ids }));

    expect(markdown).toContain('- `case-19`\n- and 3 more');
    expect(markdown).not.toContain('case-20');
    expect(markdown).toContain('No metric to show.');
  });

  it('escapes pipes and backticks of names inside the table', () => {
    const ids = ['c1'];
    const results = [result('c1', { 'a|b`c': { 'retrieval/ground_truth/ndcg@5': 0.5 } })];

    const markdown = renderMarkdown(reportInOnePass({ manifest: manifest(ids, { engines: [] }), results, failures: [], caseIds: ids }));

    expect(markdown).toContain('| metric | ``a\\|b`c`` |');
    expect(markdown).toContain('| `retrieval/ground_truth/ndcg@5/average` | 0.5000 |');
  });

  it('gives the same text for the same report', () => {
    expect(renderMarkdown(sampleReport())).toBe(renderMarkdown(sampleReport()));
  });
});

describe('renderMarkdown against a baseline', () => {
  const PRECISION = 'retrieval/llm_judged/chunk_relevance/precision';
  const comparison = { baseline_run_id: 'r-0000000000000001', baseline_kind: 'baseline' as const, regressions: [], engines: {} };
  const canaries = (attributed: number): NonNullable<Report['canaries']> => ({
    dataset: 'canaries/nightly/canary.jsonl',
    cases: { total: 10, evaluated: 10, failed: 0, missing: 0 },
    input_errors: 0,
    alpha: 0.05,
    compared_with: 'r-0000000000000001',
    judges: {},
    changed_judges: attributed > 0 ? ['chunk_relevance'] : [],
    attributed_regressions: Array.from({ length: attributed }, (_, index) => ({
      engine: `engine-${index}`,
      metric: PRECISION,
      delta: -0.2,
      p_value: 0.001,
      judge: 'chunk_relevance',
    })),
    usage: {},
    summary: [],
  });

  it('says there is no significant regression when there is none', () => {
    // Arrange
    const report: Report = { ...sampleReport(), comparison, canaries: canaries(0) };

    // Act
    const markdown = renderMarkdown(report);

    // Assess
    expect(markdown).toContain('## Against the baseline `r-0000000000000001`\n\nNo significant regression.\n');
  });

  it('says how many drops went to a changed judge when the canaries took every regression', () => {
    // Arrange
    const report: Report = { ...sampleReport(), comparison, canaries: canaries(2) };

    // Act
    const markdown = renderMarkdown(report);

    // Assess
    expect(markdown).toContain(
      'No significant regression of the engines: 2 significant drops were put down to a changed judge (`chunk_relevance`); see Judge canaries below.',
    );
    expect(markdown).not.toContain('No significant regression.');
  });
});
