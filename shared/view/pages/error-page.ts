import { escapeHtml, isolatedText } from '../../report-render/html/escape.js';
import { viewNavigation, viewPage } from './layout.js';
import { viewPaths } from './view-paths.js';

/** A page that could not be served: the status and why, with the way back to the suites. */
export function errorPage(status: number, message: string): string {
  const title = status === 404 ? 'Not found' : status >= 500 ? 'The store could not be read' : 'Bad request';
  return viewPage(
    title,
    viewNavigation([['Suites', viewPaths.suites()]]),
    `<h1>${escapeHtml(title)}</h1><p>${isolatedText(message)}</p><p class="note">HTTP ${status}</p>`,
  );
}
