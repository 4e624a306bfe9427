import type { Report } from '../../schema/report.js';
import { escapeHtml, isolatedText } from './escape.js';

/** A case count as a tile: its name, the count, and whether it calls for attention. */
type Tile = readonly [name: string, count: number, attention: boolean];

/** The page's header: suite and run, dataset, creation time, config hash, judge, and the case counts as tiles (the cases lacking a judgment among them). */
export function headerSection(report: Report): string {
  const { cases } = report;
  const facts = [
    ['Dataset', `<code>${isolatedText(report.dataset)}</code>`],
    ['Created', `<time>${escapeHtml(report.created_at)}</time>`],
    ['Config hash', `<code>${isolatedText(report.config_hash)}</code>`],
    ['Judge', isolatedText(report.judge)],
  ];
  // Reports written before judge failures were counted have no such count: no tile rather than a 0 that is not known.
  const judgeTile: Tile[] = cases.judge_failed === undefined ? [] : [['lacking a judgment', cases.judge_failed, cases.judge_failed > 0]];
  const tiles: Tile[] = [
    ['cases', cases.total, false],
    ['evaluated', cases.evaluated, false],
    ['failed', cases.failed, cases.failed > 0],
    ['missing', cases.missing, cases.missing > 0],
    ...judgeTile,
    ['input errors', report.input_errors, report.input_errors > 0],
  ];
  return (
    '<header>' +
    '<p class="kicker">assay evaluation report</p>' +
    `<h1>${isolatedText(report.suite)} <span class="run">run <code>${escapeHtml(report.run_id)}</code></span></h1>` +
    `<dl class="facts">${facts.map(([name, value]) => `<div><dt>${name}</dt><dd>${value}</dd></div>`).join('')}</dl>` +
    `<ul class="tiles" aria-label="Case counts">${tiles
      .map(
        ([name, count, attention]) => `<li${attention ? ' class="attention"' : ''}><span class="tile-count">${count}</span> ${name}</li>`,
      )
      .join('')}</ul>` +
    (report.input_errors > 0
      ? `<p class="note">${report.input_errors} dataset ${report.input_errors === 1 ? 'row' : 'rows'} could not be read, listed in the run’s <code>input-errors.jsonl</code>; the run went on without them.</p>`
      : '') +
    '</header>'
  );
}
