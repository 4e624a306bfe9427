import { createHash } from 'node:crypto';
import { escapeHtml } from './escape.js';
import { TABLE_SCRIPT } from './table-script.js';

export interface PageParts {
  /** The page's title, as text. */
  readonly title: string;
  /** The page's one style sheet. */
  readonly styles: string;
  /** Where its forms may go: nowhere for a file opened from disk, `self` for the pages `assay view` serves. */
  readonly formAction?: 'none' | 'self';
  /** The markup inside <main>, piece by piece, each on a line of its own. */
  readonly body: readonly string[];
}

/**
 * The Content-Security-Policy of a page built by selfContainedPage: its
 * style sheet and the table script (by hash), nothing fetched, no base URL,
 * forms to `formAction` only. A meta policy cannot refuse framing: a server
 * says that in a header.
 */
export function pagePolicy(styles: string, formAction: 'none' | 'self' = 'none'): string {
  return [
    "default-src 'none'",
    `style-src '${inlineSource(styles)}'`,
    `script-src '${inlineSource(TABLE_SCRIPT)}'`,
    "base-uri 'none'",
    `form-action '${formAction}'`,
  ].join('; ');
}

/**
 * A page that holds everything it shows (report.html, history.html, the
 * view's pages): one style sheet and the table script inline, allowed by a
 * policy that allows nothing else, so it opens from a bucket, a mail or a
 * disk the same way.
 */
export function selfContainedPage(page: PageParts): string {
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<meta http-equiv="Content-Security-Policy" content="${pagePolicy(page.styles, page.formAction)}">`,
    `<title>${escapeHtml(page.title)}</title>`,
    `<style>${page.styles}</style>`,
    '</head>',
    '<body>',
    '<main>',
    ...page.body,
    '</main>',
    `<script>${TABLE_SCRIPT}</script>`,
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

/** A CSP source for an inline block: its SHA-256 in base64. */
function inlineSource(text: string): string {
  return `sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}`;
}
