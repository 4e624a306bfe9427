import { describe, expect, it } from 'vitest';
import { renderHistoryHtml } from '../../../shared/history/history-html.js';
import { historyRowOf } from '../../../shared/history/history-row.js';
import { isolated, isolatedText, visibleBidiControls } from '../../../shared/report-render/html/escape.js';
import { renderHtml } from '../../../shared/report-render/html.js';
import type { CaseLine } from '../../../shared/schema/report.js';
import { nightlyReport, report } from '../history/factories.js';

describe('text from the data beside numbers', () => {
  it('writes every bidirectional formatting character out, so none acts on the text after it', () => {
    expect(visibleBidiControls('q\u202e01 \u2066x\u2069 \u200f\u061c')).toBe('q\\u202e01 \\u2066x\\u2069 \\u200f\\u061c');
  });

  it('leaves printable ASCII as escaped HTML, without an element', () => {
    expect(isolatedText('q01 <b>&"\'')).toBe('q01 &lt;b&gt;&amp;&quot;&#39;');
  });

  it('puts any other text in a <bdi>, its controls shown and its markup escaped', () => {
    expect(isolatedText('q\u202e01<script>')).toBe('<bdi>q\\u202e01&lt;script&gt;</bdi>');
    expect(isolatedText('שאלה-1')).toBe('<bdi>שאלה-1</bdi>');
    expect(isolatedText('中文')).toBe('<bdi>中文</bdi>');
  });

  it('shapes the escaped text inside the <bdi>, never the element', () => {
    expect(isolatedText('retrieval/שופט/rating', (text) => text.replaceAll('/', '/<wbr>'))).toBe(
      '<bdi>retrieval/<wbr>שופט/<wbr>rating</bdi>',
    );
  });

  it('isolates plain text (a title, a tooltip) between FSI and PDI, not yet escaped', () => {
    expect(isolated('bm25')).toBe('bm25');
    expect(isolated('b\u202e<m>')).toBe('\u2068b\\u202e<m>\u2069');
  });
});

describe('names with a right-to-left override in the stored pages', () => {
  const RLO = '\u202e';

  it('history.html shows a regression’s engine and metric isolated, its delta after them', () => {
    const row = {
      ...historyRowOf(nightlyReport(1, { [`dense${RLO}`]: 0.5, שופט: 0.6 })),
      regressions: [{ engine: `dense${RLO}`, metric: 'retrieval/ground_truth/ndcg@10', delta: -0.2754, p_value: 0.001 }],
    };

    const html = renderHistoryHtml({ suite: 'nightly', runs: [row] }, { links: { report: (runId) => `${runId}/report.html` } });

    expect(html).not.toContain(RLO);
    expect(html).toContain('<li><bdi>dense\\u202e</bdi> <code>retrieval/ground_truth/ndcg@10</code> −0.2754 (p 0.0010)</li>');
    expect(html).toContain('<bdi>שופט</bdi>');
  });

  it('report.html shows a request id and an engine isolated in the per-query table', () => {
    const line: CaseLine = {
      case_id: `c1${RLO}`,
      request_id: `q1${RLO}`,
      engine: 'שופט',
      metrics: { 'retrieval/ground_truth/ndcg@10': 0.9639 },
    };

    const html = renderHtml(report({ engines: { שופט: { 'retrieval/ground_truth/ndcg@10/average': 0.9639 } } }), [line]);

    expect(html).not.toContain(RLO);
    expect(html).toContain(
      '<tr><td><code><bdi>c1\\u202e</bdi></code></td><td><code><bdi>q1\\u202e</bdi></code></td><td><bdi>שופט</bdi></td>',
    );
  });
});
