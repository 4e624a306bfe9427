import { compareText } from '../../report/ordering.js';
import { escapeHtml, isolated, isolatedText } from '../../report-render/html/escape.js';
import type { CaseLine } from '../../schema/report.js';

/** Documents of each list shown: the judged top of a list and some way past it. */
export const LIST_ROWS = 20;

const RATINGS = /^[a-z]+\/[a-z_]+\/([^/]+)\/ratings$/;

/**
 * One query's two ranked lists side by side, A then B: rank, document,
 * score, human grade, each retrieval judge's verdict (its `…/ratings`, one per
 * judged document in rank order), and the document's rank in the other list
 * ("-" when the other list lacks it), so a document that moved, came or went
 * shows at a glance.
 */
export function rankedListsSideBySide(
  lineOfA: CaseLine | undefined,
  lineOfB: CaseLine | undefined,
  captions: readonly [string, string],
): string {
  const ranksOf = (line: CaseLine | undefined) => new Map((line?.retrieved ?? []).map((document) => [document.doc_uri, document.rank]));
  return (
    '<div class="side-by-side">' +
    rankedList(lineOfA, ranksOf(lineOfB), captions[0], 'B') +
    rankedList(lineOfB, ranksOf(lineOfA), captions[1], 'A') +
    '</div>'
  );
}

function rankedList(line: CaseLine | undefined, otherRanks: ReadonlyMap<string, number>, caption: string, other: string): string {
  if (line === undefined)
    return `<div><p><strong>${escapeHtml(caption)}</strong></p><p class="note">This run has no line for the query.</p></div>`;
  const documents = line.retrieved ?? [];
  if (documents.length === 0)
    return `<div><p><strong>${escapeHtml(caption)}</strong></p><p class="note">No ranked list was kept for the query.</p></div>`;
  const judges = Object.keys(line.metrics)
    .filter((metric) => RATINGS.test(metric) && Array.isArray(line.metrics[metric]))
    .sort(compareText);
  const rows = documents.slice(0, LIST_ROWS).map((document, index) => {
    const otherRank = otherRanks.get(document.doc_uri);
    const verdicts = judges.map((metric) => {
      const ratings = line.metrics[metric];
      const rating = Array.isArray(ratings) ? ratings[index] : undefined;
      return rating === undefined || rating === null ? '<td class="missing">-</td>' : `<td>${isolatedText(String(rating))}</td>`;
    });
    return (
      `<tr${otherRank !== document.rank ? ' class="moved"' : ''}><td class="number">${document.rank}</td><td><code>${isolatedText(document.doc_uri)}</code></td>` +
      `<td class="number">${document.score === undefined ? '-' : String(Number(document.score.toFixed(4)))}</td>` +
      `<td class="number">${document.human_grade ?? '-'}</td>${verdicts.join('')}<td class="number other-rank">${otherRank ?? '-'}</td></tr>`
    );
  });
  const more =
    documents.length > LIST_ROWS
      ? `<p class="note">The first ${LIST_ROWS} of ${documents.length} documents; cases.jsonl lists them all.</p>`
      : '';
  return (
    `<div class="scroll"><table class="ranked-list"><caption>${escapeHtml(caption)}</caption><thead><tr><th scope="col" class="number">rank</th><th scope="col">document</th>` +
    '<th scope="col" class="number">score</th><th scope="col" class="number">human grade</th>' +
    `${judges.map((metric) => `<th scope="col" title="${escapeHtml(isolated(metric))}">${isolatedText(RATINGS.exec(metric)?.[1] ?? metric)}</th>`).join('')}` +
    `<th scope="col" class="number">rank in ${other}</th></tr></thead><tbody>${rows.join('')}</tbody></table>${more}</div>`
  );
}
