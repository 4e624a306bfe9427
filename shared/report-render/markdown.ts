import { budgetText, costNote, formatCost } from './judge-cost-text.js';
import { rateLimitNote, sharedNote } from '../report/judge-usage.js';
import { adjustmentSentence } from '../schema/p-value-adjustment.js';
import { leaderboardColumns, leaderboardNote, leaderboardRows, leaderboardTitle } from './leaderboard-text.js';
import type { FailedCase, Report } from '../schema/report.js';
import { AGREEMENT_COLUMNS, agreementNote, agreementRows } from './agreement-table.js';
import { CANARY_COLUMNS, canaryNote, canaryRows } from './canary-table.js';
import { keyMetricTable } from '../report/key-metrics.js';
import { RANKING_NOTE, rankingCells, rankingColumns } from './judge-ranking-text.js';
import {
  CORRECTED_COLUMNS,
  correctedBaselineRows,
  correctedDifferenceRows,
  correctedNote,
  correctedRows,
  type CorrectedRow,
} from './corrected-table.js';

/** How many failed or missing cases (or judge failures) the page lists before "and N more"; report.json lists them all. */
export const LISTED_CASES = 20;
/** Error messages are cut to this many characters: the page is for pull requests and chat. */
const ERROR_LENGTH = 200;

/**
 * `report.md`: a short page for pull requests and chat. A title with the
 * suite and run, the case counts, an engine × key-metric table (the
 * `/average` and `/percentage` statistics, see keyMetricTable), the
 * comparison with the baseline, the leaderboards of a run of three engines or
 * more, the judges' agreement with the human labels, the judge usage, and the failed cases,
 * the judgments that ended in error (case, judge, engines, error) and the
 * missing cases (the first 20 of each); the report's warnings come first.
 */
export function renderMarkdown(report: Report): string {
  const { cases } = report;
  const judgeFailed = cases.judge_failed ?? 0;
  const sections = [
    `# ${inlineText(report.suite)}: run ${code(report.run_id)}`,
    [
      `Dataset ${code(report.dataset)}, created ${inlineText(report.created_at)}, config ${code(report.config_hash)}.`,
      `Judge: ${inlineText(report.judge)}.`,
    ].join('\n'),
    `**Cases:** ${cases.total} total, ${cases.evaluated} evaluated, ${cases.failed} failed, ${cases.missing} missing` +
      (judgeFailed > 0 ? `, ${judgeFailed} lacking a judgment` : '') +
      (report.input_errors > 0 ? ` (${report.input_errors} input ${report.input_errors === 1 ? 'error' : 'errors'})` : ''),
    warningsSection(report),
    metricsSection(report),
    comparisonSection(report),
    leaderboardSection(report),
    agreementSection(report),
    canarySection(report),
    correctedSection(report),
    judgeRankingSection(report),
    judgesSection(report),
    caseList(
      `Failed cases (${cases.failed})`,
      report.failed_cases.flatMap((failure) =>
        failure.judge === undefined ? [`${code(failure.case_id)}: ${errorText(failure.error)}`] : [],
      ),
    ),
    caseList(
      `Cases lacking a judgment (${judgeFailed})`,
      report.failed_cases.flatMap((failure) => (failure.judge === undefined ? [] : [judgeFailureText(failure)])),
    ),
    caseList(`Missing cases (${cases.missing})`, report.missing_cases.map(code)),
  ];
  return `${sections.filter((section) => section !== '').join('\n\n')}\n`;
}

/** Regressions against the baseline: the metrics significantly worse, with delta, p-value and adjusted p-value, and the family adjusted. */
function comparisonSection(report: Report): string {
  const comparison = report.comparison;
  if (comparison === undefined) return '';
  const against = `${comparison.baseline_kind === 'baseline' ? 'the baseline' : 'the previous run'} ${code(comparison.baseline_run_id)}`;
  const family = comparison.adjustment === undefined ? [] : ['', `${adjustmentSentence(comparison.adjustment)}.`];
  if (comparison.regressions.length === 0) return [`## Against ${against}`, '', noRegressionSentence(report), ...family].join('\n');
  return [
    `## Against ${against}`,
    '',
    `**${comparison.regressions.length} significant ${comparison.regressions.length === 1 ? 'regression' : 'regressions'}:**`,
    '',
    ...comparison.regressions.map((regression) => {
      const adjusted = regression.adjusted_p_value === undefined ? '' : `, adjusted p = ${regression.adjusted_p_value.toFixed(4)}`;
      const judge = regression.judge === undefined ? '' : `, corrected by ${code(regression.judge)}`;
      return `- ${code(regression.engine)} ${code(regression.metric)}: ${regression.delta.toFixed(4)} (p = ${regression.p_value.toFixed(4)}${adjusted}${judge})`;
    }),
    ...family,
  ].join('\n');
}

/** No regression of the engines; where the canaries put some down to a changed judge, how many and where they are. */
function noRegressionSentence(report: Report): string {
  const judged = report.canaries?.attributed_regressions.length ?? 0;
  if (judged === 0) return 'No significant regression.';
  const judges = [...new Set(report.canaries?.attributed_regressions.map((regression) => regression.judge))].map(code).join(', ');
  return `No significant regression of the engines: ${judged} significant ${judged === 1 ? 'drop was' : 'drops were'} put down to a changed judge (${judges}); see Judge canaries below.`;
}

/**
 * The leaderboards (report-leaderboards.ts) of NDCG, average precision and
 * the ratings, or every one when there is none of those: the engines ranked,
 * their letters, whom each is better than, and how it was tested. report.json
 * and report.html have every leaderboard.
 */
function leaderboardSection(report: Report): string {
  const every = report.leaderboards ?? [];
  const headline = every.filter((board) => HEADLINE_LEADERBOARD.test(board.metric));
  const boards = headline.length === 0 ? every : headline;
  if (boards.length === 0) return '';
  const columns = leaderboardColumns('engine');
  return [
    '## Leaderboard',
    ...boards.flatMap((board) => [
      '',
      `### ${leaderboardTitle(board, code)}`,
      '',
      tableRow(columns),
      tableRow(['---', '---:', '---:', '---', '---']),
      ...leaderboardRows(board).map(([name = '', ...cells]) => tableRow([code(name), ...cells])),
      '',
      inlineText(leaderboardNote(board, 'engine')),
    ]),
  ].join('\n');
}

/** The leaderboards report.md shows when it has them. */
const HEADLINE_LEADERBOARD = /\/(ndcg@\d+|average_precision|rating)$/;

function warningsSection(report: Report): string {
  const warnings = report.warnings ?? [];
  if (warnings.length === 0) return '';
  return ['## Warnings', '', ...warnings.map((warning) => `- ${inlineText(warning)}`)].join('\n');
}

/** Each relevance judge's agreement with the human labels (agreement-table.ts). */
function agreementSection(report: Report): string {
  const rows = agreementRows(report);
  if (rows.length === 0) return '';
  return [
    '## Agreement with the human labels',
    '',
    tableRow([...AGREEMENT_COLUMNS]),
    tableRow(['---', ...AGREEMENT_COLUMNS.slice(1).map(() => '---:')]),
    ...rows.map((row) => tableRow([code(row.judge), ...row.cells])),
    '',
    agreementNote(report),
  ].join('\n');
}

/** The judges on the canary set, and whether each changed since the run compared with (canary-table.ts). */
function canarySection(report: Report): string {
  if (report.canaries === undefined) return '';
  return [
    '## Judge canaries',
    '',
    tableRow([...CANARY_COLUMNS]),
    tableRow(['---', '---:', '---:', '---:', '---:', '---:', '---:', '---', '---']),
    ...canaryRows(report.canaries).map((row) => tableRow([code(row.judge), ...row.cells.map(inlineText)])),
    '',
    inlineText(canaryNote(report.canaries)),
  ].join('\n');
}

/** The headline human metrics corrected by each judge (corrected-table.ts); report.json and report.html have every metric. */
function correctedSection(report: Report): string {
  const rows = correctedRows(report).filter((row) => HEADLINE_CORRECTED.test(row.metric));
  const pairs = correctedDifferenceRows(report).filter((row) => HEADLINE_CORRECTED.test(row.metric));
  const baseline = correctedBaselineRows(report).filter((row) => HEADLINE_CORRECTED.test(row.metric));
  if (rows.length + pairs.length + baseline.length === 0) return '';
  const table = (title: string | undefined, first: string, body: readonly CorrectedRow[]): string[] =>
    body.length === 0
      ? []
      : [
          ...(title === undefined ? [] : ['', title, '']),
          tableRow([first, ...CORRECTED_COLUMNS.slice(1)]),
          tableRow(['---', '---', '---', ...CORRECTED_COLUMNS.slice(3, -1).map(() => '---:'), '---']),
          ...body.map(correctedRowText),
        ];
  const against = report.comparison === undefined ? '' : ` ${code(report.comparison.baseline_run_id)}`;
  return [
    '## Ground truth corrected by the judges',
    '',
    ...table(undefined, 'engine', rows),
    ...table('**Differences between engines (a − b):**', 'engines', pairs),
    ...table(`**Against the baseline${against} (this run − baseline):**`, 'engine', baseline),
    '',
    correctedNote(report),
  ].join('\n');
}

/** The judges ranked by the corrected interval they give (report.judge_ranking). */
function judgeRankingSection(report: Report): string {
  const ranking = report.judge_ranking;
  if (ranking === undefined) return '';
  const columns = rankingColumns(ranking.currency);
  const table = (rows: typeof ranking.by_width): string[] => [
    tableRow(columns),
    tableRow(['---', ...columns.slice(1).map(() => '---:')]),
    ...rows.map((judge) => {
      const [name = '', ...cells] = rankingCells(judge);
      return tableRow([code(name), ...cells]);
    }),
  ];
  return [
    '## Choosing a judge',
    '',
    `Ranked by the corrected ${Math.round(ranking.level * 100)}% interval each judge gives ${code(ranking.metric)}, on average over the engines:`,
    '',
    ...table(ranking.by_width),
    '',
    '**By labels gained per unit of cost:**',
    '',
    ...table(ranking.by_cost),
    '',
    RANKING_NOTE,
  ].join('\n');
}

function correctedRowText(row: CorrectedRow): string {
  return tableRow([
    code(row.engine),
    code(row.metric),
    code(row.judge),
    ...row.cells.map((cell, index) => (index === row.cells.length - 1 && row.flagged ? `**${inlineText(cell)}**` : inlineText(cell))),
  ]);
}

/** The corrected metrics report.md shows: NDCG, average precision and the answer judges' verdict rates (`human/<judge>`). */
const HEADLINE_CORRECTED = /^(ndcg@\d+|average_precision|human\/[^/]+)$/;

function metricsSection(report: Report): string {
  const table = keyMetricTable(report);
  if (table.rows.length === 0) return '## Metrics\n\nNo metric to show.';
  return [
    '## Metrics',
    '',
    tableRow(['metric', ...table.engines.map(code)]),
    tableRow(['---', ...table.engines.map(() => '---:')]),
    ...table.rows.map((row) => tableRow([code(row.metric), ...row.cells])),
  ].join('\n');
}

function judgesSection(report: Report): string {
  const judges = Object.entries(report.judges);
  const budget = report.judge_budget === undefined ? [] : [budgetText(report.judge_budget), ''];
  if (judges.length === 0) return budget.length === 0 ? '' : ['## Judge usage', '', ...budget].join('\n').trimEnd();
  const cost = report.judge_cost;
  const costCell = (judgeId: string): string[] =>
    cost === undefined
      ? []
      : [formatCost(Object.hasOwn(cost.judges, judgeId) ? (cost.judges[judgeId]?.cost ?? null) : null, cost.currency)];
  const models =
    cost === undefined || Object.keys(cost.models).length === 0
      ? []
      : [
          '',
          tableRow(['model', 'input tokens', 'output tokens', 'estimated cost']),
          tableRow(['---', '---:', '---:', '---:']),
          ...Object.entries(cost.models).map(([model, entry]) =>
            tableRow([code(model), String(entry.input_tokens), String(entry.output_tokens), formatCost(entry.cost, cost.currency)]),
          ),
        ];
  return [
    '## Judge usage',
    '',
    ...budget,
    tableRow([
      'judge',
      'calls',
      'cache hits',
      'retries',
      'errors',
      'input tokens',
      'output tokens',
      ...(cost === undefined ? [] : ['estimated cost']),
    ]),
    tableRow(['---', '---:', '---:', '---:', '---:', '---:', '---:', ...(cost === undefined ? [] : ['---:'])]),
    ...judges.map(([judgeId, usage]) =>
      tableRow([
        code(judgeId),
        ...[usage.calls, usage.cache_hits, usage.retries, usage.errors, usage.input_tokens, usage.output_tokens].map(String),
        ...costCell(judgeId),
      ]),
    ),
    ...models,
    '',
    costNote(cost),
    ...usageNoteLines(report),
  ].join('\n');
}

/** The notes under the judge usage table: requests refused as over the rate limit, judgments shared in the run. */
function usageNoteLines(report: Report): string[] {
  return [rateLimitNote(report.judges), sharedNote(report.judges)].flatMap((note) => (note === undefined ? [] : ['', note]));
}

/** A judgment that ended in error: the case, the judge, the engines whose metric holds the error, and the first error. */
function judgeFailureText(failure: FailedCase): string {
  const engines = failure.engines ?? [];
  const where = engines.length === 0 ? '' : ` (${engines.length === 1 ? 'engine' : 'engines'} ${engines.map(code).join(', ')})`;
  return `${code(failure.case_id)}: judge ${code(failure.judge ?? '')}${where}: ${errorText(failure.error)}`;
}

function caseList(heading: string, items: readonly string[]): string {
  if (items.length === 0) return '';
  const listed = items.slice(0, LISTED_CASES).map((item) => `- ${item}`);
  if (items.length > LISTED_CASES) listed.push(`- and ${items.length - LISTED_CASES} more`);
  return [`## ${heading}`, '', ...listed].join('\n');
}

/** A table row; a pipe inside a cell is escaped, even within a code span, as GitHub's tables need. */
function tableRow(cells: readonly string[]): string {
  return `| ${cells.map((cell) => cell.replaceAll('|', '\\|')).join(' | ')} |`;
}

/** A code span that holds any text: the fence is longer than any backtick run inside. */
function code(text: string): string {
  const flat = inlineText(text);
  const longestRun = Math.max(0, ...(flat.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longestRun + 1);
  const padding = flat.startsWith('`') || flat.endsWith('`') ? ' ' : '';
  return `${fence}${padding}${flat}${padding}${fence}`;
}

/** Text on one line: an id or message with line breaks would break a list item or a table. */
function inlineText(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function errorText(error: string): string {
  const flat = inlineText(error);
  return flat.length > ERROR_LENGTH ? `${flat.slice(0, ERROR_LENGTH - 1)}…` : flat;
}
