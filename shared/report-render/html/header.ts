import type { Report } from '../../schema/report.js';
import { escapeHtml, isolatedText } from './escape.js';

/** The page's header: suite and run, dataset, creation time, config hash, judge, and the case counts as tiles. */
export function headerSection(report: Report): string {
  const { cases } = report;
  const facts = [
    ['Dataset', `<code>${isolatedText(report.dataset)}</code>`],
    ['Created', `<time>${escapeHtml(report.created_at)}</time>`],
    ['Config hash', `<code>${isolatedText(report.config_hash)}</code>`],
    ['Judge', isolatedText(report.judge)],
  ];
  const tiles: [string, number, boolean][] = [
    ['cases', cases.total, false],
    ['evaluated', cases.evaluated, false],
    ['failed', cases.failed, cases.failed > 0],
    ['missing', cases.missing, cases.missing > 0],
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
