import { compareText } from '../../report/ordering.js';
import { escapeHtml, isolated, isolatedText } from '../../report-render/html/escape.js';
import { choiceNote } from './choice-note.js';
import type { ComparedRuns } from './compared-runs.js';
import { breakableName, pValueHtml, signedDelta } from './compare-numbers.js';
import { viewNavigation, viewPage } from './layout.js';
import { queryChangesSection } from './query-changes-section.js';
import { viewPaths } from './view-paths.js';
import { adjustmentSentence } from '../../schema/p-value-adjustment.js';

export type { ComparedRuns } from './compared-runs.js';

/**
 * `/compare?a=RUN&b=RUN`: a form to choose the runs, the engine and the
 * metric; per engine and metric the numbers of `assay compare --json` (means,
 * delta, p-values, significance, n, wins, losses, ties); and the per-query
 * changes of one engine and metric, the address's or the largest change's
 * (compare-choice.ts), saying which and why (choice-note.ts). Stored names are
 * escaped; the tables wrap long names and ids to fit the page, and scroll
 * inside it when they cannot.
 */
export function comparePage(
  form: { readonly a?: string; readonly b?: string },
  compared: ComparedRuns | undefined,
  problem?: string,
): string {
  const body =
    '<header><p class="kicker">assay view</p><h1>Compare two runs</h1>' +
    '<p class="note">Cases are paired by request id within each engine, as <code>assay compare A B</code> pairs them; delta = B − A, positive when B is higher.</p></header>' +
    choiceForm(form, compared) +
    (problem === undefined ? '' : `<p class="warning">${isolatedText(problem)}</p>`) +
    (compared === undefined ? '' : choiceNote(compared) + summaryTable(compared) + queryChangesSection(compared));
  return viewPage(
    'Compare two runs',
    viewNavigation([['Suites', viewPaths.suites()], ...(compared === undefined ? [] : runLinks(compared))]),
    body,
  );
}

function runLinks(compared: ComparedRuns): [string, string][] {
  return [
    [`A: ${compared.a.runId}`, viewPaths.run(compared.a.runId)],
    [`B: ${compared.b.runId}`, viewPaths.run(compared.b.runId)],
  ];
}

function choiceForm(form: { readonly a?: string; readonly b?: string }, compared: ComparedRuns | undefined): string {
  const engines = compared === undefined ? [] : Object.keys(compared.comparison.engines).sort(compareText);
  const shown = compared?.choice;
  // The choice's engine is a key of the comparison, so indexing by it reads an own property.
  const metrics = shown === undefined ? [] : Object.keys(compared?.comparison.engines[shown.engine] ?? {}).sort(compareText);
  const select = (name: string, label: string, options: readonly string[], chosen: string | undefined) =>
    options.length === 0
      ? ''
      : `<label for="choose-${name}">${label}<select id="choose-${name}" name="${name}">${options
          .map(
            (option) =>
              `<option value="${escapeHtml(option)}"${option === chosen ? ' selected' : ''}>${escapeHtml(isolated(option))}</option>`,
          )
          .join('')}</select></label>`;
  return (
    '<form class="choose" method="get" action="/compare">' +
    `<label for="choose-a">Run A (before)<input id="choose-a" name="a" required pattern="r-[0-9a-f]{16}" value="${escapeHtml(form.a ?? '')}" placeholder="r-…" autocomplete="off" spellcheck="false"></label>` +
    `<label for="choose-b">Run B (after)<input id="choose-b" name="b" required pattern="r-[0-9a-f]{16}" value="${escapeHtml(form.b ?? '')}" placeholder="r-…" autocomplete="off" spellcheck="false"></label>` +
    select('engine', 'Engine', engines, shown?.engine) +
    select('metric', 'Metric of the per-query changes', metrics, shown?.metric) +
    '<button type="submit">Compare</button></form>'
  );
}

function summaryTable(compared: ComparedRuns): string {
  const rows = Object.keys(compared.comparison.engines)
    .sort(compareText)
    .flatMap((engine) => {
      const metrics = compared.comparison.engines[engine] ?? {};
      return Object.keys(metrics)
        .sort(compareText)
        .map((metric) => {
          const entry = metrics[metric];
          if (entry === undefined) return '';
          const change = !entry.significant || entry.delta === 0 ? 'no' : entry.delta > 0 ? '▲ higher' : '▼ lower';
          const rowClass = !entry.significant || entry.delta === 0 ? 'unchanged' : entry.delta > 0 ? 'higher' : 'lower';
          const shown = compared.choice?.engine === engine && compared.choice.metric === metric;
          return (
            `<tr class="${rowClass}${shown ? ' shown' : ''}"${shown ? ' aria-current="true"' : ''}><td>${isolatedText(engine)}</td>` +
            `<td><a href="${escapeHtml(viewPaths.compare(compared.a.runId, compared.b.runId, { engine, metric }))}"><code>${breakableName(metric)}</code></a></td>` +
            `${number(entry.a)}${number(entry.b)}<td class="number delta" data-value="${entry.delta}">${signedDelta(entry.delta)}</td>` +
            `<td class="number" data-value="${entry.relative_delta ?? ''}">${entry.relative_delta === null ? '-' : `${(entry.relative_delta * 100).toFixed(1)}%`}</td>` +
            `<td class="number" data-value="${entry.p_value}">${pValueHtml(entry.p_value)}</td><td class="number" data-value="${entry.t_test_p_value}">${pValueHtml(entry.t_test_p_value)}</td>` +
            `<td>${change}</td><td class="number">${entry.n}</td><td class="number">${entry.wins}/${entry.losses}/${entry.ties}</td></tr>`
          );
        });
    });
  return (
    '<section id="summary" aria-labelledby="summary-heading"><h2 id="summary-heading">Per engine and metric</h2>' +
    (rows.length === 0
      ? '<p>The runs have no engine and metric in common.</p>'
      : '<div class="scroll"><table class="comparison" data-sortable><thead><tr><th scope="col">engine</th><th scope="col">metric</th>' +
        `<th scope="col" class="number">A<br><code>${escapeHtml(compared.a.runId)}</code></th><th scope="col" class="number">B<br><code>${escapeHtml(compared.b.runId)}</code></th>` +
        '<th scope="col" class="number">delta</th><th scope="col" class="number">relative</th><th scope="col" class="number">p-value</th>' +
        '<th scope="col" class="number">t-test p</th><th scope="col">significant</th><th scope="col" class="number">n</th><th scope="col" class="number">W/L/T</th>' +
        `</tr></thead><tbody>${rows.join('')}</tbody></table></div><p class="note">p-value: paired randomization test (10,000 seeded sign flips, or all 2^n under 14 pairs); ${escapeHtml(adjustmentSentence(compared.comparison.adjustment))}. W/L/T: queries where B is above, below or equal to A. The same numbers as <code>assay compare --json</code> and <a href="${escapeHtml(`/api/compare?a=${compared.a.runId}&b=${compared.b.runId}`)}">/api/compare</a>.</p>`) +
    '</section>'
  );
}

function number(value: number): string {
  return `<td class="number" data-value="${value}">${value.toFixed(4)}</td>`;
}
