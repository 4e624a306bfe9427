import type { RankedJudge } from '../schema/report.js';
import type { JudgeRankingReport } from '../schema/agreement.js';
import { renderAgreementText } from './agreement-text.js';
import { alignedTable } from './text-table.js';

/**
 * Several judges in the terminal: each judge's agreement report under its
 * name, then the ranking: by the corrected interval's width, and by the
 * human labels gained per unit of cost.
 */
export function renderJudgeRankingText(report: JudgeRankingReport): string {
  const sections = Object.entries(report.judges).map(([name, one]) => `== judge ${name} ==\n${renderAgreementText(one)}`);
  return `${sections.join('\n')}\n${renderRankingTables(report.ranking)}`;
}

/** The two ranking tables with the sentence that says what they are. */
export function renderRankingTables(ranking: JudgeRankingReport['ranking']): string {
  const header = rankingColumns(ranking.currency);
  return (
    `== judges ranked by the corrected ${Math.round(ranking.level * 100)}% interval of ${ranking.measure} (mean over the runs) ==\n` +
    `${alignedTable(header, ranking.by_width.map(rankingCells))}\n\n` +
    `by labels gained per unit of cost:\n${alignedTable(header, ranking.by_cost.map(rankingCells))}\n\n` +
    `${RANKING_NOTE}\n`
  );
}

/** What the ranking's columns mean, under every form of the table. */
export const RANKING_NOTE =
  "width: the corrected interval's width, on average; worth: the labelled cases (topics) the human labels alone would need for the same width; labels per cost: (worth − labelled) / cost.";

/** The ranking table's columns, the cost's with its currency when known. */
export function rankingColumns(currency: string | null): string[] {
  return [
    'judge',
    'width',
    'human only',
    'ratio',
    'labelled',
    'worth (labels)',
    'bias',
    'kappa',
    currency === null ? 'cost' : `cost (${currency})`,
    'labels per cost',
  ];
}

/** One judge's row of the ranking table, numbers formatted. */
export function rankingCells(judge: RankedJudge): string[] {
  return [
    judge.name,
    fixed(judge.width),
    fixed(judge.human_width),
    fixed(judge.width_ratio, 2),
    fixed(judge.labelled, 1),
    fixed(judge.equivalent_labels, 1),
    signed(judge.bias),
    fixed(judge.kappa),
    judge.cost === null ? 'n/a' : String(judge.cost),
    fixed(judge.labels_per_cost, 2),
  ];
}

function fixed(value: number | null, decimals = 4): string {
  return value === null ? 'n/a' : value.toFixed(decimals);
}

function signed(value: number | null): string {
  return value === null ? 'n/a' : `${value > 0 ? '+' : ''}${value.toFixed(4)}`;
}
