import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { pagePolicy } from '../../../shared/report-render/html/page.js';
import { STYLES } from '../../../shared/report-render/html/styles.js';
import { TABLE_SCRIPT } from '../../../shared/report-render/html/table-script.js';
import { DATA_POLICY, storedPagePolicy } from '../../../shared/view/content-policy.js';

const hash = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

describe('the policy of a stored page', () => {
  it('allows the page’s own style sheets and the view’s table script, and nothing the page says it may run', () => {
    const attack = 'fetch("/api/suites").then((r) => r.text()).then((t) => document.title = t)';
    const stored =
      `<html><head><meta http-equiv="Content-Security-Policy" content="script-src 'unsafe-inline' *"><style>${STYLES}</style><style media="print">p { color: red }</style></head>` +
      `<body><main><script>${attack}</script><img src=x onerror="alert(1)"><script>${TABLE_SCRIPT}</script></main></body></html>`;

    const policy = storedPagePolicy(stored);

    expect(policy.split('; ')).toEqual([
      "default-src 'none'",
      `style-src ${hash(STYLES)} ${hash('p { color: red }')}`,
      `script-src ${hash(TABLE_SCRIPT)}`,
      "base-uri 'none'",
      "form-action 'none'",
      "frame-ancestors 'none'",
      'sandbox allow-scripts',
    ]);
    expect(policy).not.toContain(hash(attack));
    expect(policy).not.toContain('unsafe');
  });

  it('allows the same script and style sheet as report.html’s own meta policy', () => {
    const meta = pagePolicy(STYLES);

    expect(meta).toContain(`style-src ${hash(STYLES)}`);
    expect(storedPagePolicy(`<style>${STYLES}</style>`)).toContain(`style-src ${hash(STYLES)}`);
    expect(meta).toContain(`script-src ${hash(TABLE_SCRIPT)}`);
  });

  it('allows no style for a page without a style sheet; data answers allow nothing', () => {
    expect(storedPagePolicy('<p>hello</p>')).toContain("style-src 'none'");
    expect(DATA_POLICY).toBe("default-src 'none'; frame-ancestors 'none'; sandbox");
  });
});
