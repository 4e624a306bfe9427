import type { JudgePrices } from '../schema/judge-prices.js';
import type { JudgeCost } from '../schema/report.js';
import type { JudgeUsageRecord, ModelTokens } from '../schema/run-records.js';
import { sortedRecord } from './ordering.js';

/** The model name a cost table shows for tokens whose record names no model (records of older versions). */
export const UNRECORDED_MODEL = '(model not recorded)';

/**
 * The estimated cost of judge usage at `prices`: per model, tokens × its
 * price per million; per judge, the sum over the models it used. Cache hits
 * use no tokens, so they cost nothing. Tokens of a model without a price make
 * its cost, the cost of every judge that used it, and the total unknown
 * (null): a price is never guessed, and no sum is ever NaN.
 */
export function judgeCost(judges: Readonly<Record<string, JudgeUsageRecord>>, prices: JudgePrices): JudgeCost {
  const byModel = new Map<string, ModelTokens>();
  const judgeCosts: [string, { cost: number | null }][] = [];
  for (const [judgeId, usage] of Object.entries(judges)) {
    let cost: number | null = 0;
    for (const [model, tokens] of modelTokensOf(usage)) {
      const sum = byModel.get(model) ?? { input_tokens: 0, output_tokens: 0 };
      byModel.set(model, { input_tokens: sum.input_tokens + tokens.input_tokens, output_tokens: sum.output_tokens + tokens.output_tokens });
      const modelCost = tokenCost(tokens, prices, model);
      cost = cost === null || modelCost === null ? null : cost + modelCost;
    }
    judgeCosts.push([judgeId, { cost }]);
  }
  const models = sortedRecord([...byModel].map(([model, tokens]) => [model, { ...tokens, cost: tokenCost(tokens, prices, model) }] as const));
  const unpriced = Object.entries(models).filter(([, entry]) => entry.cost === null).map(([model]) => model);
  const total = unpriced.length > 0 ? null : Object.values(models).reduce((sum, entry) => sum + (entry.cost ?? 0), 0);
  return { currency: prices.currency, total, models, judges: sortedRecord(judgeCosts), unpriced_models: unpriced };
}

/**
 * What judge usage cost at `prices`, counting only models with a price: the
 * spend a cost ceiling compares with (a ceiling requires every model of the
 * run to have one).
 */
export function pricedSpend(judges: Readonly<Record<string, JudgeUsageRecord>>, prices: JudgePrices): number {
  let spend = 0;
  for (const usage of Object.values(judges)) {
    for (const [model, tokens] of modelTokensOf(usage)) spend += tokenCost(tokens, prices, model) ?? 0;
  }
  return spend;
}

/** A judge's tokens by model; tokens its record does not attribute to a model go under UNRECORDED_MODEL. */
function modelTokensOf(usage: JudgeUsageRecord): [string, ModelTokens][] {
  const entries = Object.entries(usage.models ?? {});
  const attributedInput = entries.reduce((sum, [, tokens]) => sum + tokens.input_tokens, 0);
  const attributedOutput = entries.reduce((sum, [, tokens]) => sum + tokens.output_tokens, 0);
  const rest = { input_tokens: Math.max(0, usage.input_tokens - attributedInput), output_tokens: Math.max(0, usage.output_tokens - attributedOutput) };
  return rest.input_tokens + rest.output_tokens > 0 ? [...entries, [UNRECORDED_MODEL, rest]] : entries;
}

function tokenCost(tokens: ModelTokens, prices: JudgePrices, model: string): number | null {
  if (tokens.input_tokens === 0 && tokens.output_tokens === 0) return 0;
  const price = Object.hasOwn(prices.models, model) ? prices.models[model] : undefined;
  if (price === undefined) return null;
  return (tokens.input_tokens * price.input_per_million + tokens.output_tokens * price.output_per_million) / 1_000_000;
}
