import { createHash } from 'node:crypto';
import { HISTORY_STYLES } from '../history/html/history-styles.js';
import { pagePolicy } from '../report-render/html/page.js';
import { TABLE_SCRIPT } from '../report-render/html/table-script.js';
import { VIEW_STYLES } from './pages/layout.js';

/**
 * The Content-Security-Policy header of every answer of `assay view`. A page
 * the view renders gets the policy its own markup carries (its style sheet
 * and the table script, by hash), so the header and the page's meta policy
 * agree. A page the view serves from the store (report.html) is trusted for
 * nothing: whatever its own meta policy says, the header runs no script but
 * the view's table script (by hash, as this version of assay writes it),
 * allows only the style sheets the page holds (a style sheet fetches nothing:
 * every fetch is refused), and sandboxes the page in an origin of its own,
 * so even a script that ran could not read the view's API. Every answer
 * refuses framing (frame-ancestors) and fetches nothing (default-src).
 */

/** No page of the view is shown in a frame: every answer says so. */
const NO_FRAMING = "frame-ancestors 'none'";

/** The view's own pages (suites, cases, compare, errors): VIEW_STYLES and the table script; forms to the view only. */
export const VIEW_PAGE_POLICY = `${pagePolicy(VIEW_STYLES, 'self')}; ${NO_FRAMING}`;

/** A suite's page, rendered from history.json as history.html is: HISTORY_STYLES and the table script. */
export const HISTORY_PAGE_POLICY = `${pagePolicy(HISTORY_STYLES, 'none')}; ${NO_FRAMING}`;

/** JSON and text answers: nothing to run, style or fetch, in an origin of their own should a browser render one. */
export const DATA_POLICY = `default-src 'none'; ${NO_FRAMING}; sandbox`;

/**
 * The policy of a stored page (report.html as the store holds it): its own
 * inline style sheets by hash; the view's table script by hash and no other
 * script (not an inline one, an event handler, a `javascript:` URL or a
 * script file); nothing fetched; no base URL; no form sent; and a sandbox
 * without `allow-same-origin`, so the page runs in an opaque origin and
 * cannot read the view's pages or API even through a script that ran.
 */
export function storedPagePolicy(html: string): string {
  const styles = [...new Set(inlineStyleSheets(html).map(hashSource))];
  return [
    "default-src 'none'",
    `style-src ${styles.length === 0 ? "'none'" : styles.join(' ')}`,
    `script-src ${hashSource(TABLE_SCRIPT)}`,
    "base-uri 'none'",
    "form-action 'none'",
    NO_FRAMING,
    'sandbox allow-scripts',
  ].join('; ');
}

/** The text of each `<style>` element of a page, as a browser takes it (raw text up to the first `</style`). */
function inlineStyleSheets(html: string): string[] {
  return [...html.matchAll(/<style(?:\s[^>]*)?>([\s\S]*?)<\/style[\s/>]/gi)].map((match) => match[1] ?? '');
}

/** A CSP source for an inline block: its SHA-256 in base64, quoted. */
function hashSource(text: string): string {
  return `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
}
