import type { Leaderboard } from '../schema/leaderboard.js';
import { adjustmentName } from '../schema/p-value-adjustment.js';
import { terminalName, terminalText } from './terminal-text.js';
import { alignedTable } from './text-table.js';

/**
 * A leaderboard's table and note as text, for report.md, report.html and the
 * terminal (`assay compare`, `assay agreement`): one row per system, best
 * first, with its name, rank, mean (how it was estimated when that is not the
 * board's own way), its letters (two systems sharing a letter are not told
 * apart), and the ranks of the systems it is separated from and better than.
 */
export function leaderboardColumns(system: 'engine' | 'run'): string[] {
  return [system, 'rank', 'mean', 'letters', 'better than'];
}

export function leaderboardRows(board: Leaderboard): string[][] {
  const rankOf = new Map(board.ranking.map((entry) => [entry.name, entry.rank]));
  const better = new Map<string, number[]>();
  for (const pair of board.pairs) {
    if (!pair.separated || pair.difference === null || pair.difference === 0) continue;
    const [winner, loser] = pair.difference > 0 ? pair.names : [pair.names[1], pair.names[0]];
    better.set(winner, [...(better.get(winner) ?? []), rankOf.get(loser) as number]);
  }
  const expected = board.judge === undefined ? 'mean' : 'corrected';
  return board.ranking.map((entry) => [
    entry.name,
    String(entry.rank),
    `${entry.mean.toFixed(4)}${entry.estimate === expected ? '' : ` (${entry.estimate})`}`,
    entry.letters.join(entry.letters.some((letter) => letter.length > 1) ? ' ' : ''),
    rankRanges(better.get(entry.name) ?? []),
  ]);
}

/** The board's metric, and its judge when the means are corrected. */
export function leaderboardTitle(board: Leaderboard, code: (text: string) => string = (text) => text): string {
  return board.judge === undefined ? code(board.metric) : `${code(board.metric)}, corrected by ${code(board.judge)}`;
}

/**
 * What the table shows and how it was tested: "Separates 12 of the 28 pairs:
 * ..." with the means' and the tests' kind, and the family adjusted.
 */
export function leaderboardNote(board: Leaderboard, system: 'engine' | 'run'): string {
  const pairs = board.pairs.length;
  const unit = board.unit === 'topics' ? 'topic' : 'case';
  const means =
    board.judge === undefined
      ? `Means over each ${system}'s ${unit}s; each pair tested by Student's paired t-test on the ${unit}s both have`
      : `Means corrected by ${board.judge}'s values and the human labels (prediction-powered); each pair tested by its corrected difference on the ${unit}s both have (the paired t-test on the labelled ones where that has no interval)`;
  const untested = board.pairs.filter((pair) => pair.test === 'none').length;
  const adjusted =
    board.adjustment.method === 'none'
      ? `p-values not adjusted; separated: p < ${board.adjustment.alpha}`
      : `p-values adjusted by ${adjustmentName(board.adjustment.method)} across the ${board.adjustment.tests} pairs tested; separated: adjusted p < ${board.adjustment.alpha}`;
  const letters =
    board.letters_reason === undefined ? `${system}s that share a letter are not told apart` : `no letters: ${board.letters_reason}`;
  return (
    `Separates ${board.separated} of the ${pairs} pairs${untested === 0 ? '' : ` (${untested} not tested)`}; ${letters}. ` +
    `${means}; ${adjusted}.`
  );
}

/** Ranks as ranges: [2, 3, 4, 7] → "2–4, 7"; none → "". */
function rankRanges(ranks: readonly number[]): string {
  const sorted = [...ranks].sort((left, right) => left - right);
  const ranges: string[] = [];
  for (let start = 0; start < sorted.length; ) {
    let end = start;
    while (end + 1 < sorted.length && sorted[end + 1] === (sorted[end] as number) + 1) end++;
    ranges.push(end === start ? String(sorted[start]) : `${sorted[start]}–${sorted[end]}`);
    start = end + 1;
  }
  return ranges.join(', ');
}

/**
 * Leaderboards for the terminal: per board a title line ("leaderboard of
 * <metric>[, corrected by <judge>]" after `heading`), the table and its note;
 * boards separated by a blank line, the text ending with a newline.
 */
export function renderLeaderboardsText(boards: readonly Leaderboard[], system: 'engine' | 'run', heading: string): string {
  return boards
    .map(
      (board) =>
        `${terminalName(`${heading}: ${leaderboardTitle(board)}`)}\n${alignedTable(leaderboardColumns(system), leaderboardRows(board))}\n${terminalText(leaderboardNote(board, system))}\n`,
    )
    .join('\n');
}
