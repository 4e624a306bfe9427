import { escapeHtml, isolatedText } from '../../report-render/html/escape.js';
import { isSignificantChange, rankedChanges, type CompareChoice } from '../compare-choice.js';
import type { ComparedRuns } from './compared-runs.js';
import { breakableName, pValueHtml, signedDelta } from './compare-numbers.js';
import { viewPaths } from './view-paths.js';

/** Other changes linked from the note: enough to reach the next few suspects in one click; the table lists every one. */
const OTHER_CHANGES = 5;

/**
 * What the per-query changes below show and why (the page chose it, or the
 * address did), and links to the next largest changes, so a user who
 * expected another engine or metric sees at once that the page chose, and
 * goes on in one click.
 */
export function choiceNote(compared: ComparedRuns): string {
  const { choice } = compared;
  if (choice === undefined) return '';
  const shown = `<a href="#queries"><strong>${isolatedText(choice.engine)}</strong>, <code>${breakableName(choice.metric)}</code></a>`;
  const others = rankedChanges(compared.comparison)
    .filter((change) => change.compared.delta !== 0 && !(change.engine === choice.engine && change.metric === choice.metric))
    .slice(0, OTHER_CHANGES);
  const links = others.map(
    (change) =>
      `<li><a href="${escapeHtml(viewPaths.compare(compared.a.runId, compared.b.runId, { engine: change.engine, metric: change.metric }))}">${isolatedText(change.engine)}, <code>${breakableName(change.metric)}</code></a> ` +
      `${signedDelta(change.compared.delta)}${isSignificantChange(change.compared) ? ', significant' : ''}</li>`,
  );
  return (
    `<section class="choice" aria-label="Engine and metric shown"><p>Per-query changes below: ${shown}, ${reasonText(choice)}.` +
    (choice.reason === 'asked'
      ? ` <a href="${escapeHtml(viewPaths.compare(compared.a.runId, compared.b.runId))}">Open on the largest change</a>.`
      : '') +
    '</p>' +
    (links.length === 0
      ? '<p class="note">No other engine and metric moved on average; the table lists them all.</p>'
      : `<p class="note">Other changes, the largest first (significant ones before the rest; the table lists every engine and metric):</p><ul class="other-changes">${links.join('')}</ul>`) +
    '</section>'
  );
}

function reasonText(choice: CompareChoice): string {
  const { delta, p_value: pValue } = choice.compared;
  const numbers = `${signedDelta(delta)}, p ${pValue < 0.001 ? pValueHtml(pValue) : `= ${pValueHtml(pValue)}`}`;
  const among = choice.among === 'engine' ? ' of this engine' : choice.among === 'metric' ? ' on this metric' : '';
  switch (choice.reason) {
    case 'asked':
      return `as chosen in the address (${numbers})`;
    case 'largest-significant-change':
      return `the largest significant change${among} (${numbers})`;
    case 'largest-change':
      return `the largest change${among} (${numbers}); no change${among} is significant`;
    case 'no-change':
      return choice.among === 'engine'
        ? 'as no metric of this engine moved on average'
        : choice.among === 'metric'
          ? 'as no engine moved on this metric on average'
          : 'as no engine and metric moved on average';
  }
}
