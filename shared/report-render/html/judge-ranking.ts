import type { Report } from '../../schema/report.js';
import { RANKING_NOTE, rankingCells, rankingColumns } from '../judge-ranking-text.js';
import { escapeHtml, isolatedText } from './escape.js';

/** The judges ranked by the corrected interval they give (report.judge_ranking): by width, then by labels gained per unit of cost. */
export function judgeRankingSection(report: Report): string {
  const ranking = report.judge_ranking;
  if (ranking === undefined) return '';
  const columns = rankingColumns(ranking.currency);
  const table = (rows: typeof ranking.by_width): string =>
    '<div class="scroll"><table class="judge-ranking"><thead><tr>' +
    columns.map((title, index) => `<th scope="col"${index > 0 ? ' class="number"' : ''}>${escapeHtml(title)}</th>`).join('') +
    '</tr></thead><tbody>' +
    rows
      .map((judge) => {
        const [name = '', ...cells] = rankingCells(judge);
        return `<tr><th scope="row"><code>${isolatedText(name)}</code></th>${cells.map((cell) => `<td class="number">${escapeHtml(cell)}</td>`).join('')}</tr>`;
      })
      .join('') +
    '</tbody></table></div>';
  return (
    '<section id="judge-ranking" aria-labelledby="judge-ranking-heading"><h2 id="judge-ranking-heading">Choosing a judge</h2>' +
    `<p>Ranked by the corrected ${Math.round(ranking.level * 100)}% interval each judge gives <code>${isolatedText(ranking.metric)}</code>, on average over the engines.</p>` +
    table(ranking.by_width) +
    '<h3>By labels gained per unit of cost</h3>' +
    table(ranking.by_cost) +
    `<p class="note">${escapeHtml(RANKING_NOTE)}</p></section>`
  );
}
