import { describe, expect, it } from 'vitest';
import { reportInOnePass } from '../../../shared/report/aggregate.js';
import { caseLines } from '../../../shared/report/cases-jsonl.js';
import { judgeCost } from '../../../shared/report/judge-cost.js';
import { renderHtml, type RunComparison } from '../../../shared/report-render/html.js';
import { keyMetricTable } from '../../../shared/report/key-metrics.js';
import type { CaseLine, Report } from '../../../shared/schema/report.js';
import type { CaseResult } from '../../../shared/schema/run-records.js';
import { failure, manifest, result, usage } from './factories.js';

const CORRECTNESS = 'response/llm_judged/correctness/rating';
const NDCG = 'retrieval/ground_truth/ndcg@10';
const HOSTILE_ENGINE = '<script>alert("engine")</script>';
const HOSTILE_ERROR = 'bad answer </td><script>alert(1)</script>';
const HOSTILE_CASE = '<img src=x onerror=alert(2)>';

interface Sample {
  report: Report;
  cases: CaseLine[];
}

/** Four cases: three evaluated (ndcg labelled on two), one failed, one missing; engines bm25 and dense. */
function sample(engines: readonly string[] = ['bm25', 'dense'], failureError = 'judge timed out'): Sample {
  const [first = 'bm25', second = 'dense'] = engines;
  const ids = ['c1', 'c2', 'c3', 'c4', 'c5'];
  const results: CaseResult[] = [
    result(
      'c1',
      { [first]: { [CORRECTNESS]: 'yes', [NDCG]: 0.5 }, [second]: { [CORRECTNESS]: 'yes', [NDCG]: 1 } },
      { correctness: usage({ calls: 4, cache_hits: 1, input_tokens: 2_000_000, output_tokens: 500_000 }) },
    ),
    result('c2', { [first]: { [CORRECTNESS]: 'no', [NDCG]: 0.25 }, [second]: { [CORRECTNESS]: 'yes', [NDCG]: 0.5 } }),
    result('c3', { [first]: { [CORRECTNESS]: 'yes' }, [second]: { [CORRECTNESS]: 'no' } }),
  ];
  const built = reportInOnePass({
    manifest: manifest(ids, { engines: [] }),
    results,
    failures: [failure('c4', failureError)],
    caseIds: ids,
  });
  // The page is checked without intervals first; withIntervals below adds known ones.
  const withoutIntervals = Object.fromEntries(
    Object.entries(built.engines).map(([engine, statistics]) => [
      engine,
      Object.fromEntries(Object.entries(statistics).filter(([name]) => !/\/ci_(low|high)$/.test(name))),
    ]),
  );
  return { report: { ...built, engines: withoutIntervals }, cases: caseLines(results) };
}

/** The sample with 95% intervals on ndcg, as the bootstrap statistics add them. */
function withIntervals({ report, cases }: Sample): Sample {
  const engines = Object.fromEntries(
    Object.entries(report.engines).map(([engine, statistics]) => [
      engine,
      { ...statistics, [`${NDCG}/average/ci_low`]: 0.7, [`${NDCG}/average/ci_high`]: 0.8 },
    ]),
  );
  return { report: { ...report, engines }, cases };
}

const comparison: RunComparison = {
  baseline_run_id: 'run-0',
  adjustment: { method: 'holm', family: 'engine_metrics', tests: 3, alpha: 0.05 },
  engines: {
    dense: { [`${NDCG}/average`]: { a: 0.65, b: 0.75, delta: 0.1, p_value: 0.0004, significant: true, adjusted_p_value: 0.0012 } },
  },
  per_query: [{ case_id: 'c1', engine: 'dense', metric: NDCG, a: 0.5, b: 1, delta: 0.5 }],
};

function count(text: string, pattern: RegExp): number {
  return [...text.matchAll(pattern)].length;
}

describe('renderHtml', () => {
  it('is a complete HTML5 page with a viewport, inline styles and print styles', () => {
    const { report, cases } = sample();

    const html = renderHtml(report, cases);

    expect(html.startsWith('<!doctype html>\n<html lang="en">')).toBe(true);
    expect(html).toContain('<meta charset="utf-8">');
    expect(html).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
    expect(html).toMatch(/<style>[\s\S]*@media print \{[\s\S]*<\/style>/);
    expect(html.trimEnd().endsWith('</html>')).toBe(true);
  });

  it('has the header facts and every section, and no comparison section without a comparison', () => {
    const { report, cases } = sample();

    const html = renderHtml(report, cases);

    expect(html).toContain('<h1>faq <span class="run">run <code>run-1</code></span></h1>');
    expect(html).toContain('<code>datasets/faq/cases.jsonl</code>');
    expect(html).toContain('lexical judge (non-LLM approximations)');
    // 5 cases: 3 evaluated, 1 failed, 1 missing, no input error
    expect(html).toContain('<span class="tile-count">5</span> cases');
    expect(html).toContain('<span class="tile-count">3</span> evaluated');
    expect(html).toContain('<li class="attention"><span class="tile-count">1</span> failed');
    expect(html).toContain('<li class="attention"><span class="tile-count">1</span> missing');
    expect(html).toContain('<span class="tile-count">0</span> input errors');
    for (const id of ['metrics', 'charts', 'per-query', 'judges', 'cases']) expect(html).toContain(`<section id="${id}"`);
    expect(html).not.toContain('id="comparison"');
    expect(html).not.toContain('href="#comparison"');
  });

  it('draws one accessible SVG bar chart per key metric', () => {
    const { report, cases } = sample();
    const keyMetrics = keyMetricTable(report).rows.length;

    const html = renderHtml(report, cases);

    // correctness/rating/percentage and ndcg@10/average
    expect(keyMetrics).toBe(2);
    expect(count(html, /<svg /g)).toBe(keyMetrics);
    expect(count(html, /<svg class="bar-chart" role="img" aria-labelledby="chart-\d-title chart-\d-desc"/g)).toBe(keyMetrics);
    expect(html).toContain(`<title id="chart-2-title">${NDCG}/average</title>`);
    // ndcg over the 2 labelled cases: bm25 (0.5 + 0.25) / 2 = 0.375, dense (1 + 0.5) / 2 = 0.75
    expect(html).toContain('<desc id="chart-2-desc">bm25: 0.3750; dense: 0.7500</desc>');
    expect(html).toContain('average over cases</text>');
    expect(html).toContain('share of “yes” ratings</text>');
    expect(html).not.toContain('class="whisker"');
  });

  it('shows the key metrics per engine, with the 95% interval and a whisker when the report has one', () => {
    const plain = renderHtml(sample().report, sample().cases);
    const { report, cases } = withIntervals(sample());

    const html = renderHtml(report, cases);

    expect(plain).toContain('<td class="number"><strong>0.7500</strong> <span class="count">n=2</span></td>');
    expect(plain).not.toContain('95% bootstrap');
    expect(html).toContain(
      '<td class="number"><strong>0.7500</strong> <span class="interval">[0.70, 0.80]</span> <span class="count">n=2</span></td>',
    );
    // correctness: bm25 2 yes of 3 = 66.7%, dense 2 of 3 = 66.7%; no interval given
    expect(html).toContain('<td class="number"><strong>66.7%</strong></td>');
    expect(count(html, /class="whisker"/g)).toBe(2);
    expect(html).toContain('dense: 0.7500 (95% interval [0.70, 0.80])');
  });

  it('lists every case line in the per-query table, in the markup, sortable and filterable by the page script', () => {
    const { report, cases } = sample();

    const html = renderHtml(report, cases);

    const table = /<table id="per-query-table"[\s\S]*?<\/table>/.exec(html)?.[0] ?? '';
    // 3 evaluated cases × 2 engines
    expect(count(table, /<tr>/g)).toBe(1 + 6);
    expect(table).toContain('data-sortable');
    expect(table).toContain(
      '<tr><td><code>c1</code></td><td><code>request-c1</code></td><td>bm25</td><td>yes</td><td class="number" data-value="0.5">0.5000</td></tr>',
    );
    expect(table).toContain('<td>no</td><td class="number missing">-</td></tr>');
    expect(table).not.toContain('hidden');
    expect(html).toContain('<div class="table-controls" data-table-controls="per-query-table" hidden>');
    expect(count(html, /<script>/g)).toBe(1);
  });

  it("shows safety's rating under both its names, and its per-case verdicts in one column", () => {
    // Prepare: safety yes on c1, no on c2; 1 yes of 2 = 50.0%, which is also the average 0.5000
    const ids = ['c1', 'c2'];
    const safety = 'response/llm_judged/safety/rating';
    const results = [result('c1', { bm25: { [safety]: 'yes' } }), result('c2', { bm25: { [safety]: 'no' } })];
    const report = reportInOnePass({ manifest: manifest(ids, { engines: [] }), results, failures: [], caseIds: ids });

    // Act
    const html = renderHtml(report, caseLines(results));

    // Assess
    const metrics = /<table class="metrics"[\s\S]*?<\/table>/.exec(html)?.[0] ?? '';
    expect(metrics).toContain('<code>response/llm_judged/safety/rating/average</code></th><td class="number">0.5000 ');
    expect(metrics).toContain('<code>response/llm_judged/safety/rating/percentage</code></th><td class="number">50.0% ');
    expect(html).toContain('<figcaption title="response/llm_judged/safety/rating/average"><code>llm_judged/safety/rating/average</code>');
    const table = /<table id="per-query-table"[\s\S]*?<\/table>/.exec(html)?.[0] ?? '';
    expect(
      count(table, /<th scope="col"[^>]*title="response\/llm_judged\/safety\/rating">llm_judged\/<wbr>safety\/<wbr>rating<\/th>/g),
    ).toBe(1);
    expect(table).toContain('<td>bm25</td><td>yes</td></tr>');
  });

  it('shows the judge usage without a cost when the config gives no prices, and says so', () => {
    const { report, cases } = sample();

    const html = renderHtml(report, cases);

    expect(html).toContain(
      '<tr><th scope="row"><code>correctness</code></th><td class="number">4</td><td class="number">1</td><td class="number">0</td><td class="number">0</td>' +
        '<td class="number">2,000,000</td><td class="number">500,000</td></tr>',
    );
    expect(html).not.toContain('estimated cost');
    expect(html).toContain('No cost estimate: the config gives no judge.prices.');
  });

  it('shows the cost per judge and per model from the report, and an unknown cost for a model without a price', () => {
    const { report, cases } = sample();
    const judges = {
      correctness: usage({
        calls: 4,
        input_tokens: 2_000_000,
        output_tokens: 500_000,
        models: { 'gpt-4o-mini': { input_tokens: 2_000_000, output_tokens: 500_000 } },
      }),
      groundedness: usage({
        calls: 1,
        input_tokens: 1_000,
        output_tokens: 10,
        models: { llama3: { input_tokens: 1_000, output_tokens: 10 } },
      }),
    };
    const priced: Report = {
      ...report,
      judges,
      judge_cost: judgeCost(judges, { currency: 'EUR', models: { 'gpt-4o-mini': { input_per_million: 1, output_per_million: 2 } } }),
    };

    const html = renderHtml(priced, cases);

    // correctness: 2 M × 1 + 0.5 M × 2 = EUR 3; groundedness asked llama3, which has no price
    expect(html).toContain('<td class="number">500,000</td><td class="number">EUR 3.0000</td></tr>');
    expect(html).toContain('<td class="number">10</td><td class="number">unknown</td></tr>');
    expect(html).toContain(
      '<tr><th scope="row"><code>gpt-4o-mini</code></th><td class="number">2,000,000</td><td class="number">500,000</td><td class="number">EUR 3.0000</td></tr>',
    );
    expect(html).toContain('total unknown');
    expect(html).toContain('No price for llama3: its cost is unknown.');
    expect(html).not.toContain('NaN');
  });

  it('says that the cost ceiling was reached, with the judged and skipped case counts', () => {
    const { report, cases } = sample();
    const budgeted: Report = {
      ...report,
      judge_budget: { max_judge_cost: 0.5, currency: 'USD', reached: true, judged_cases: 2, skipped_cases: 1 },
    };

    const html = renderHtml(budgeted, cases);

    expect(html).toContain(
      'The judge spend reached run.max_judge_cost USD 0.5000: 2 cases judged, 1 evaluated without their LLM judges; judge metrics are averaged over the judged cases only.',
    );
  });

  it('lists the failed cases with their errors and the missing cases', () => {
    const { report, cases } = sample(['bm25', 'dense'], 'judge timed out\nafter 3 tries');

    const html = renderHtml(report, cases);

    expect(html).toContain('<h3>Failed cases (1)</h3>');
    expect(html).toContain('<tr><td><code>c4</code></td><td class="error">judge timed out\nafter 3 tries</td></tr>');
    expect(html).toContain('<h3>Missing cases (1)</h3>');
    expect(html).toContain('<li><code>c5</code></li>');
  });

  it('lists the judgments that ended in error with their judge and engines, escaped, and shows the n they leave', () => {
    // Prepare: c1 and c2 judged; correctness on c3 ended in error on dense only, with hostile text in the error
    const ids = ['c1', 'c2', 'c3'];
    const results = [
      result('c1', { bm25: { [CORRECTNESS]: 'yes', [NDCG]: 0.5 }, dense: { [CORRECTNESS]: 'yes', [NDCG]: 1 } }),
      result('c2', { bm25: { [CORRECTNESS]: 'no', [NDCG]: 0.25 }, dense: { [CORRECTNESS]: 'no', [NDCG]: 0.5 } }),
      result('c3', {
        bm25: { [CORRECTNESS]: 'yes', [NDCG]: 0 },
        dense: { [CORRECTNESS]: null, 'response/llm_judged/correctness/error_message': HOSTILE_ERROR, [NDCG]: 0 },
      }),
    ];
    const report = reportInOnePass({ manifest: manifest(ids, { engines: [] }), results, failures: [], caseIds: ids });

    // Act
    const html = renderHtml(report, caseLines(results));

    // Assess: dense's correctness is over 2 of its 3 cases, bm25's over all 3
    expect(html).toContain('<li class="attention"><span class="tile-count">1</span> lacking a judgment');
    expect(html).toContain('<h3>Failed cases (0)</h3>');
    expect(html).toContain('<h3>Cases lacking a judgment (1)</h3>');
    expect(html).toContain(
      '<tr><td><code>c3</code></td><td><code>correctness</code></td><td><code>dense</code></td>' +
        '<td class="error">bad answer &lt;/td&gt;&lt;script&gt;alert(1)&lt;/script&gt;</td></tr>',
    );
    expect(html).not.toContain('</td><script>');
    expect(html).toContain(
      '<td class="number"><strong>66.7%</strong> <span class="interval">[0.0%, 100.0%]</span></td>' +
        '<td class="number">50.0% <span class="interval">[0.0%, 100.0%]</span> <span class="count">n=2</span></td></tr>',
    );
  });

  it('escapes engine names, case ids and error messages', () => {
    const { report, cases } = sample([HOSTILE_ENGINE, 'dense'], HOSTILE_ERROR);
    const hostileReport: Report = { ...report, missing_cases: [HOSTILE_CASE] };
    const hostileCases = cases.map((line) => (line.case_id === 'c2' ? { ...line, case_id: HOSTILE_CASE } : line));

    const html = renderHtml(hostileReport, hostileCases);

    expect(html).not.toContain('<script>alert');
    expect(html).not.toContain('<img');
    expect(html).not.toContain('</td><script>');
    expect(count(html, /<script/g)).toBe(1);
    expect(html).toContain('&lt;script&gt;alert(&quot;engine&quot;)&lt;/script&gt;');
    expect(html).toContain('bad answer &lt;/td&gt;&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('&lt;img src=x onerror=alert(2)&gt;');
  });

  it('refers to no URL: nothing to load, links within the page only', () => {
    const { report, cases } = withIntervals(sample());

    const html = renderHtml(report, cases, { comparison });

    expect(html).not.toMatch(/https?:\/\//i);
    expect(html).not.toMatch(/\/\/[a-z0-9-]+\./i);
    expect(html).not.toMatch(/\ssrc\s*=/i);
    expect(html).not.toMatch(/url\(|@import|<link|<iframe|<object|<embed|<img/i);
    const links = [...html.matchAll(/\shref\s*=\s*"([^"]*)"/gi)].map((match) => match[1]);
    expect(links.length).toBeGreaterThan(0);
    for (const link of links) expect(link).toMatch(/^#[a-z-]+$/);
    expect(html).toMatch(
      /<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'sha256-[^']+'; script-src 'sha256-[^']+';/,
    );
  });

  it('gives the same bytes for the same inputs, whatever the order of the case lines', () => {
    const first = withIntervals(sample());
    const second = withIntervals(sample());

    const html = renderHtml(first.report, first.cases, { comparison });

    expect(renderHtml(second.report, second.cases, { comparison })).toBe(html);
    expect(renderHtml(second.report, [...second.cases].reverse(), { comparison })).toBe(html);
  });

  it('shows the deltas against the baseline only when given a comparison', () => {
    const { report, cases } = sample();

    const html = renderHtml(report, cases, { comparison });

    expect(html).toContain('<section id="comparison"');
    expect(html).toContain('Baseline run <code>run-0</code>');
    expect(html).toContain(
      `<tr class="higher"><td>dense</td><td><code>${NDCG}/average</code></td><td class="number" data-value="0.65">0.6500</td>` +
        '<td class="number" data-value="0.75">0.7500</td><td class="number delta" data-value="0.1">+0.1000</td>' +
        '<td class="number" data-value="0.0004">&lt; 0.001</td><td class="number" data-value="0.0012">0.001</td><td>▲ higher</td></tr>',
    );
    expect(html).toContain(
      '<p class="note">p-values adjusted by Holm&#39;s method across the 3 tests of this comparison (each engine × metric); significant: adjusted p &lt; 0.05.</p>',
    );
    expect(html).toContain('<h3>Per-query deltas (1)</h3>');
    expect(html).toContain(`<tr><td><code>c1</code></td><td>dense</td><td><code>${NDCG}</code></td>`);
  });

  it('rejects a comparison of the wrong shape', () => {
    const { report, cases } = sample();
    const malformed = { baseline_run_id: 'run-0', engines: { dense: { [NDCG]: { a: 1, b: 2 } } } } as unknown as RunComparison;

    expect(() => renderHtml(report, cases, { comparison: malformed })).toThrow(/delta/);
  });

  it('says so when there is no metric, no case line and no judge usage', () => {
    const ids = ['c1'];
    const report = reportInOnePass({ manifest: manifest(ids, { engines: [] }), results: [], failures: [], caseIds: ids });

    const html = renderHtml(report, []);

    expect(html).toContain('<p>No metric to show.</p>');
    expect(html).not.toContain('<svg');
    expect(html).not.toContain('<section id="charts"');
    expect(html).toContain('<p>No per-query result.</p>');
    expect(html).toContain('No judge usage recorded');
    expect(html).toContain('<h3>Failed cases (0)</h3><p class="note">');
  });
});
