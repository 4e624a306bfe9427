import { escapeHtml, isolatedText } from '../../report-render/html/escape.js';
import type { QueryChange } from '../compare-stored.js';
import type { ComparedRuns, PageOfChanges } from './compared-runs.js';
import { breakableName, signedDelta } from './compare-numbers.js';
import { rankedListsSideBySide } from './ranked-lists.js';
import { viewPaths } from './view-paths.js';

/**
 * The chosen engine's per-query changes of the chosen metric, a page at a
 * time: the losses, the largest first, then the gains, the largest first
 * (the order of queryChanges), each under its own heading and numbered
 * within it, so the worst loss and the best gain both open their list
 * whichever way the mean moved. Each query opens to the two runs' ranked
 * lists side by side.
 */
export function queryChangesSection(compared: ComparedRuns): string {
  const { choice, changes } = compared;
  if (choice === undefined || changes === undefined) return '';
  const heading = `<h2 id="queries-heading">Per-query changes: ${isolatedText(choice.engine)}, <code>${breakableName(choice.metric)}</code></h2>`;
  if (changes.total === 0)
    return `<section id="queries" aria-labelledby="queries-heading">${heading}<p>No query changed (${changes.unchanged} unchanged).</p></section>`;
  const gains = changes.total - changes.losses;
  const lossesShown = changes.page.filter((change) => change.delta < 0);
  const gainsShown = changes.page.filter((change) => change.delta > 0);
  return (
    `<section id="queries" aria-labelledby="queries-heading">${heading}` +
    `<p class="note">${count(changes.total, 'query', 'queries')} changed: ${changes.losses} lost, ${gains} gained; ${changes.unchanged} unchanged. ` +
    'The losses come first, the largest loss first, then the gains, the largest gain first. Open a query to see the two ranked lists side by side.</p>' +
    pageLinks(compared, changes) +
    group(compared, 'losses', `Lost (${changes.losses})`, lossesShown, changes.offset + 1) +
    group(compared, 'gains', `Gained (${gains})`, gainsShown, changes.offset + lossesShown.length - changes.losses + 1) +
    '</section>'
  );
}

/** One side of the changes on this page, numbered from `start` within its side; nothing when the page holds none of it. */
function group(compared: ComparedRuns, side: 'losses' | 'gains', title: string, shown: readonly QueryChange[], start: number): string {
  if (shown.length === 0) return '';
  const captions = [`A: ${compared.a.runId}`, `B: ${compared.b.runId}`] as const;
  const items = shown.map(
    (change) =>
      `<li><details><summary><code>${isolatedText(change.request_id)}</code>: A ${change.a.toFixed(4)}, B ${change.b.toFixed(4)} <span class="delta">(${signedDelta(change.delta)})</span></summary>` +
      `${rankedListsSideBySide(compared.lists.a.get(change.request_id), compared.lists.b.get(change.request_id), captions)}</details></li>`,
  );
  return `<h3 id="${side}-heading">${title}</h3><ol class="query-changes ${side}" start="${start}" aria-labelledby="${side}-heading">${items.join('')}</ol>`;
}

/** Previous and next pages, and a jump to the side this page does not show (the gains begin after the last loss). */
function pageLinks(compared: ComparedRuns, changes: PageOfChanges): string {
  const { choice } = compared;
  if (choice === undefined) return '';
  const link = (offset: number, text: string, rel?: string) =>
    `<a href="${escapeHtml(viewPaths.compare(compared.a.runId, compared.b.runId, { engine: choice.engine, metric: choice.metric, offset, limit: changes.limit }))}"${rel === undefined ? '' : ` rel="${rel}"`}>${text}</a>`;
  const end = changes.offset + changes.page.length;
  const gains = changes.total - changes.losses;
  const links = [
    changes.offset > 0 ? link(Math.max(0, changes.offset - changes.limit), `Previous ${changes.limit}`, 'prev') : '',
    end < changes.total ? link(end, `Next ${changes.limit}`, 'next') : '',
    changes.losses > 0 && changes.offset >= changes.losses ? link(0, `The losses (${changes.losses})`) : '',
    gains > 0 && end <= changes.losses ? link(changes.losses, `The gains (${gains})`) : '',
  ].filter((text) => text !== '');
  return links.length === 0 ? '' : `<nav class="pages" aria-label="Pages of query changes">${links.join('')}</nav>`;
}

function count(value: number, one: string, many: string): string {
  return `${value} ${value === 1 ? one : many}`;
}
