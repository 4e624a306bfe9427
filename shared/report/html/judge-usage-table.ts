import type { Report } from '../../schema/report.js';
import type { JudgeUsageRecord } from '../../schema/run-records.js';
import { escapeHtml } from './escape.js';

/** Prices of judge tokens, for the cost estimate of the judge usage table. */
export interface TokenPrices {
  /** The price of one million input (prompt) tokens. */
  readonly inputPerMillion: number;
  /** The price of one million output (completion) tokens. */
  readonly outputPerMillion: number;
  /** The currency the prices are in, shown next to every cost, such as `USD`. */
  readonly currency: string;
}

/**
 * The list prices of gpt-4o-mini, the judge model assay uses unless told
 * otherwise: USD 0.15 per million input tokens and USD 0.60 per million
 * output tokens. Another model or provider needs its own prices.
 */
export const DEFAULT_TOKEN_PRICES: TokenPrices = { inputPerMillion: 0.15, outputPerMillion: 0.6, currency: 'USD' };

const COUNTS = ['calls', 'cache_hits', 'retries', 'errors', 'input_tokens', 'output_tokens'] as const;

/**
 * Per judge id: calls, cache hits, retries, errors, tokens, and the cost
 * those tokens would have at `prices`, with a total row. Cache hits add no
 * tokens (the judge client counts tokens on real calls only), so they cost
 * nothing here. The page says the cost is an estimate and at which prices.
 */
export function judgeUsageSection(report: Report, prices: TokenPrices): string {
  const judges = Object.entries(report.judges);
  const heading = '<h2 id="judges-heading">Judge usage</h2>';
  if (judges.length === 0) return section(`${heading}<p>No judge usage recorded: no judge call was made for this run.</p>`);
  const total: JudgeUsageRecord = { calls: 0, cache_hits: 0, retries: 0, errors: 0, input_tokens: 0, output_tokens: 0 };
  for (const [, usage] of judges) for (const count of COUNTS) total[count] += usage[count];
  const cells = (usage: JudgeUsageRecord): string =>
    COUNTS.map((count) => `<td class="number">${grouped(usage[count])}</td>`).join('') +
    `<td class="number">${escapeHtml(formatCost(cost(usage, prices), prices))}</td>`;
  const body = judges.map(([judgeId, usage]) => `<tr><th scope="row"><code>${escapeHtml(judgeId)}</code></th>${cells(usage)}</tr>`);
  const footer = `<tr><th scope="row">total</th>${cells(total)}</tr>`;
  const priceText = `${escapeHtml(prices.currency)} ${formatPrice(prices.inputPerMillion)} per million input tokens and ${escapeHtml(prices.currency)} ${formatPrice(prices.outputPerMillion)} per million output tokens`;
  return section(
    heading +
      '<div class="scroll"><table class="judges"><thead><tr><th scope="col">judge</th><th scope="col" class="number">calls</th>' +
      '<th scope="col" class="number">cache hits</th><th scope="col" class="number">retries</th><th scope="col" class="number">errors</th>' +
      '<th scope="col" class="number">input tokens</th><th scope="col" class="number">output tokens</th>' +
      '<th scope="col" class="number">estimated cost</th></tr></thead>' +
      `<tbody>${body.join('')}</tbody><tfoot>${footer}</tfoot></table></div>` +
      `<p class="note">The cost is an estimate at ${priceText}; the bill depends on the model and the provider. Cache hits use no tokens.</p>`,
  );
}

function cost(usage: JudgeUsageRecord, prices: TokenPrices): number {
  return (usage.input_tokens * prices.inputPerMillion + usage.output_tokens * prices.outputPerMillion) / 1_000_000;
}

function formatCost(amount: number, prices: TokenPrices): string {
  return `${prices.currency} ${amount.toFixed(4)}`;
}

/** A price with at least 2 decimals, more when it has them: 0.6 -> "0.60", 0.075 -> "0.075". */
function formatPrice(price: number): string {
  const text = String(price);
  return text.includes('e') || (text.split('.')[1]?.length ?? 0) > 2 ? text : price.toFixed(2);
}

/** An integer with thousands separated by commas, the same on every machine (unlike toLocaleString). */
function grouped(value: number): string {
  return Number.isInteger(value) ? String(value).replace(/\B(?=(\d{3})+(?!\d))/g, ',') : String(value);
}

function section(body: string): string {
  return `<section id="judges" aria-labelledby="judges-heading">${body}</section>`;
}
