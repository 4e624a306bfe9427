import { HISTORY_STYLES } from '../../history/html/history-styles.js';
import { escapeHtml, isolatedText } from '../../report-render/html/escape.js';
import { selfContainedPage } from '../../report-render/html/page.js';

/**
 * The history page's style sheet and what the view's own pages add: the
 * compare form, the note on the engine and metric shown, and the
 * side-by-side ranked lists. Ids, documents and metric paths in the tables
 * wrap (code wraps anywhere, metric paths after each slash) so the tables fit
 * the page at 1280 px; a table that still cannot fit scrolls in its own box
 * (.scroll) rather than running off the page.
 */
export const VIEW_STYLES = `${HISTORY_STYLES}
form.choose { display: flex; flex-wrap: wrap; align-items: end; gap: 8px 14px; margin: 10px 0 4px; }
form.choose label { display: flex; flex-direction: column; font-size: 0.8rem; color: var(--muted); }
form.choose input, form.choose select, form.choose button { font: inherit; font-size: 0.9rem; padding: 3px 8px; border: 1px solid #9aa5b1; border-radius: 4px; background: #fff; color: var(--text); }
form.choose input { width: 13em; }
form.choose select { max-width: 30em; }
ol.query-changes { padding-left: 2.4em; }
ol.query-changes > li { margin: 4px 0; }
ol.query-changes summary { cursor: pointer; }
ol.query-changes summary:focus-visible { outline: 2px solid var(--accent); outline-offset: 2px; }
.side-by-side { display: grid; grid-template-columns: repeat(auto-fit, minmax(360px, 1fr)); gap: 10px 22px; margin: 8px 0 14px; }
.side-by-side caption { text-align: left; font-weight: 600; padding: 2px 0 6px; }
table.comparison thead code { white-space: nowrap; }
table.comparison tr.shown td { font-weight: 600; }
table.comparison tr.shown td:first-child { box-shadow: inset 4px 0 var(--accent); }
section.choice { margin: 12px 0 0; }
section.choice p { margin: 4px 0; }
ul.other-changes { margin: 2px 0 0; padding-left: 1.2em; font-size: 0.9rem; }
tr.moved td.other-rank { font-weight: 600; }
.pages { display: flex; gap: 16px; margin: 10px 0; }
.suite-card { border: 1px solid var(--line); border-radius: 6px; padding: 4px 16px 12px; margin: 14px 0; }
.suite-card h2 { border: none; margin-top: 10px; }
`;

/** The view's navigation, placed first on every page: in report.html's and history.html's markup, styled by their own `nav ul` rule. */
export function viewNavigation(links: readonly (readonly [label: string, href: string])[]): string {
  return `<nav aria-label="assay view"><ul>${links.map(([label, href]) => `<li><a href="${escapeHtml(href)}">${isolatedText(label)}</a></li>`).join('')}</ul></nav>`;
}

/** A page of the view: the shared head, the navigation, the body, and the table script; its forms go to this server only (framing is refused by the X-Frame-Options header: a meta policy cannot). */
export function viewPage(title: string, navigation: string, body: string): string {
  return selfContainedPage({ title: `${title} · assay view`, styles: VIEW_STYLES, formAction: 'self', body: [navigation, body] });
}
