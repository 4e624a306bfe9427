import type { Report } from '../../schema/report.js';
import type { JudgeUsageRecord } from '../../schema/run-records.js';
import { budgetText, costNote, formatCost } from '../judge-cost-text.js';
import { escapeHtml, isolatedText } from './escape.js';
import { rateLimitNote, sharedNote } from '../../report/judge-usage.js';
import { addUsages } from '../../scoring/judge-usage-tally.js';

const COUNTS = ['calls', 'cache_hits', 'retries', 'errors', 'input_tokens', 'output_tokens'] as const;

/**
 * Per judge id: calls, cache hits, retries, errors, tokens, and, when the
 * config gives judge.prices, the estimated cost of those tokens (report.json's
 * judge_cost), with a total row and a table of tokens and cost per model. A
 * model without a price shows an unknown cost, never a guessed one. With
 * run.max_judge_cost, a line says whether the ceiling was reached and how
 * many cases were judged.
 */
export function judgeUsageSection(report: Report): string {
  const judges = Object.entries(report.judges);
  const heading = '<h2 id="judges-heading">Judge usage</h2>';
  const budget = report.judge_budget === undefined ? '' : `<p class="note">${escapeHtml(budgetText(report.judge_budget))}</p>`;
  if (judges.length === 0) return section(`${heading}<p>No judge usage recorded: no judge call was made for this run.</p>${budget}`);
  const cost = report.judge_cost;
  const total = addUsages(judges.map(([, usage]) => usage));
  const cells = (usage: JudgeUsageRecord, amount: number | null): string =>
    COUNTS.map((count) => `<td class="number">${grouped(usage[count])}</td>`).join('') +
    (cost === undefined ? '' : `<td class="number">${escapeHtml(formatCost(amount, cost.currency))}</td>`);
  const body = judges.map(
    ([judgeId, usage]) =>
      `<tr><th scope="row"><code>${isolatedText(judgeId)}</code></th>${cells(usage, judgeCostOf(report, judgeId))}</tr>`,
  );
  const footer = `<tr><th scope="row">total</th>${cells(total, cost?.total ?? null)}</tr>`;
  const costHeader = cost === undefined ? '' : '<th scope="col" class="number">estimated cost</th>';
  return section(
    heading +
      budget +
      '<div class="scroll"><table class="judges"><thead><tr><th scope="col">judge</th><th scope="col" class="number">calls</th>' +
      '<th scope="col" class="number">cache hits</th><th scope="col" class="number">retries</th><th scope="col" class="number">errors</th>' +
      '<th scope="col" class="number">input tokens</th><th scope="col" class="number">output tokens</th>' +
      `${costHeader}</tr></thead>` +
      `<tbody>${body.join('')}</tbody><tfoot>${footer}</tfoot></table></div>` +
      modelTable(report) +
      `<p class="note">${escapeHtml(costNote(cost))}</p>` +
      usageNoteParagraphs(report),
  );
}

/** The notes under the judge usage table: requests refused as over the rate limit, judgments shared in the run. */
function usageNoteParagraphs(report: Report): string {
  return [rateLimitNote(report.judges), sharedNote(report.judges)]
    .map((note) => (note === undefined ? '' : `<p class="note">${escapeHtml(note)}</p>`))
    .join('');
}

function judgeCostOf(report: Report, judgeId: string): number | null {
  const entry =
    report.judge_cost === undefined || !Object.hasOwn(report.judge_cost.judges, judgeId) ? undefined : report.judge_cost.judges[judgeId];
  return entry === undefined ? null : entry.cost;
}

function modelTable(report: Report): string {
  const cost = report.judge_cost;
  if (cost === undefined || Object.keys(cost.models).length === 0) return '';
  const rows = Object.entries(cost.models).map(
    ([model, entry]) =>
      `<tr><th scope="row"><code>${isolatedText(model)}</code></th><td class="number">${grouped(entry.input_tokens)}</td>` +
      `<td class="number">${grouped(entry.output_tokens)}</td><td class="number">${escapeHtml(formatCost(entry.cost, cost.currency))}</td></tr>`,
  );
  return (
    '<div class="scroll"><table class="judges"><thead><tr><th scope="col">model</th><th scope="col" class="number">input tokens</th>' +
    `<th scope="col" class="number">output tokens</th><th scope="col" class="number">estimated cost</th></tr></thead><tbody>${rows.join('')}</tbody></table></div>`
  );
}

/** An integer with thousands separated by commas, the same on every machine (unlike toLocaleString). */
function grouped(value: number): string {
  return Number.isInteger(value) ? String(value).replace(/\B(?=(\d{3})+(?!\d))/g, ',') : String(value);
}

function section(body: string): string {
  return `<section id="judges" aria-labelledby="judges-heading">${body}</section>`;
}
