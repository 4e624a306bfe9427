import type { SuiteCard, UnreadableRow } from '../../history/history-file.js';
import { readableTime } from '../../history/html/runs-table.js';
import { formatAverage, formatPercentage, isKeyStatistic } from '../../report/key-metrics.js';
import { compareText } from '../../report/ordering.js';
import { escapeHtml, isolatedText } from '../../report-render/html/escape.js';
import { regressionEvidence } from '../../report-render/regression-text.js';
import { viewNavigation, viewPage } from './layout.js';
import { viewPaths } from './view-paths.js';

/**
 * `/`: every suite with a history, by name: its run count, its newest run
 * (time, cases, the regressions its comparison found) and that run's
 * headline statistics per engine.
 */
export function suitesPage(cards: readonly SuiteCard[], unreadable: readonly UnreadableRow[], storeName: string): string {
  const body =
    `<header><p class="kicker">assay view</p><h1>Suites</h1><p class="note">${cards.length} ${cards.length === 1 ? 'suite' : 'suites'} with a history in ${isolatedText(storeName)}.</p></header>` +
    (cards.length === 0
      ? '<p>No suite has a history in this store yet. Every report of a suite adds its run to the history; for reports written before, run <code>assay history rebuild --suite S</code>.</p>'
      : cards.map(suiteCard).join('')) +
    (unreadable.length === 0
      ? ''
      : `<section class="warning" aria-labelledby="unreadable-heading"><h2 id="unreadable-heading">Suites left out</h2><ul>${unreadable
          .map((entry) => `<li><code>${isolatedText(entry.key)}</code>: ${isolatedText(entry.reason)}</li>`)
          .join('')}</ul></section>`);
  return viewPage(
    'Suites',
    viewNavigation([
      ['Suites', viewPaths.suites()],
      ['Compare two runs', viewPaths.compareForm()],
    ]),
    body,
  );
}

function suiteCard(card: SuiteCard, index: number): string {
  const { newest } = card;
  const engines = Object.keys(newest.engines).sort(compareText);
  const statistics = [...new Set(engines.flatMap((engine) => Object.keys(newest.engines[engine] ?? {})))]
    .filter((name) => isKeyStatistic(name) || name === 'thresholds/pass/average')
    .sort(compareText);
  const headingId = `suite-${index + 1}`;
  const regressions =
    newest.regressions.length === 0
      ? 'none'
      : `<ul class="regressions">${newest.regressions
          .map(
            (entry) =>
              `<li>${isolatedText(entry.engine)} <code>${isolatedText(entry.metric)}</code> ${entry.delta.toFixed(4)} (${escapeHtml(regressionEvidence(entry, newest.adjustment))})</li>`,
          )
          .join('')}</ul>`;
  const facts = [
    ['Runs', String(card.runs)],
    [
      'Newest run',
      `<a href="${escapeHtml(viewPaths.run(newest.run_id))}"><code>${isolatedText(newest.run_id)}</code></a> <time datetime="${escapeHtml(newest.created_at)}">${escapeHtml(readableTime(newest.created_at))}</time>`,
    ],
    [
      'Cases',
      `${newest.cases.evaluated} of ${newest.cases.total} evaluated, ${newest.cases.failed} failed, ${newest.cases.missing} missing` +
        ((newest.cases.judge_failed ?? 0) > 0 ? `, ${newest.cases.judge_failed} lacking a judgment` : ''),
    ],
    ['Regressions', regressions],
    ...judgeChangedFact(newest),
  ];
  const rows = statistics.map((statistic) => {
    const cells = engines.map((engine) => {
      const values = newest.engines[engine] ?? {};
      const value = Object.hasOwn(values, statistic) ? values[statistic] : undefined;
      if (value === undefined) return '<td class="number missing">-</td>';
      return `<td class="number">${statistic.endsWith('/percentage') ? formatPercentage(value) : formatAverage(value)}</td>`;
    });
    return `<tr><th scope="row"><code>${isolatedText(statistic)}</code></th>${cells.join('')}</tr>`;
  });
  const table =
    rows.length === 0
      ? ''
      : `<div class="scroll"><table class="metrics"><caption class="note">Headline statistics of the newest run</caption><thead><tr><th scope="col">statistic</th>${engines
          .map((engine) => `<th scope="col" class="number">${isolatedText(engine)}</th>`)
          .join('')}</tr></thead><tbody>${rows.join('')}</tbody></table></div>`;
  return (
    `<section class="suite-card" aria-labelledby="${headingId}"><h2 id="${headingId}"><a href="${escapeHtml(viewPaths.suite(card.suite))}">${isolatedText(card.suite)}</a></h2>` +
    `<dl class="facts">${facts.map(([name, value]) => `<div><dt>${name}</dt><dd>${value}</dd></div>`).join('')}</dl>${table}</section>`
  );
}

/** The newest run's canary, when it found a judge changed: each sentence its report says. */
function judgeChangedFact(newest: SuiteCard['newest']): [string, string][] {
  const summary = newest.canaries?.summary ?? [];
  if (summary.length === 0) return [];
  return [['Judge changed', `<ul class="judge-changes">${summary.map((sentence) => `<li>${isolatedText(sentence)}</li>`).join('')}</ul>`]];
}
