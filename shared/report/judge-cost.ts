import { priceOf, type JudgePrices } from '../schema/judge-prices.js';
import type { JudgeCost } from '../schema/report.js';
import type { JudgeUsageRecord, ModelTokens } from '../schema/run-records.js';
import { sortedRecord } from './ordering.js';

/** The model name a cost table shows for tokens whose record names no model (records of older versions). */
export const UNRECORDED_MODEL = '(model not recorded)';

/**
 * The estimated cost of judge usage at `prices`: per model, tokens × its
 * price per million (the tokens of answers from batch jobs at its batch
 * price); per judge, the sum over the models it used; with batch tokens,
 * what the same tokens would have cost on demand (`online_cost`). Cache hits
 * use no tokens, so they cost nothing. Tokens of a model without a price make
 * its cost, the cost of every judge that used it, and the total unknown
 * (null): a price is never guessed, and no sum is ever NaN.
 */
export function judgeCost(judges: Readonly<Record<string, JudgeUsageRecord>>, prices: JudgePrices): JudgeCost {
  const byModel = new Map<string, { tokens: ModelTokens; batch: ModelTokens }>();
  const judgeCosts: [string, { cost: number | null }][] = [];
  let online: number | null = 0;
  for (const [judgeId, usage] of Object.entries(judges)) {
    let cost: number | null = 0;
    for (const [model, tokens] of modelTokensOf(usage)) {
      const batch = usage.batch_models?.[model] ?? NO_TOKENS;
      const sum = byModel.get(model) ?? { tokens: NO_TOKENS, batch: NO_TOKENS };
      byModel.set(model, { tokens: addTokens(sum.tokens, tokens), batch: addTokens(sum.batch, batch) });
      const modelCost = tokenCost(tokens, batch, prices, model);
      cost = cost === null || modelCost === null ? null : cost + modelCost;
      const onlineCost = tokenCost(tokens, NO_TOKENS, prices, model);
      online = online === null || onlineCost === null ? null : online + onlineCost;
    }
    judgeCosts.push([judgeId, { cost }]);
  }
  const models = sortedRecord(
    [...byModel].map(([model, { tokens, batch }]) => {
      const batched =
        batch.input_tokens + batch.output_tokens > 0
          ? { batch_input_tokens: batch.input_tokens, batch_output_tokens: batch.output_tokens }
          : {};
      return [model, { ...tokens, ...batched, cost: tokenCost(tokens, batch, prices, model) }] as const;
    }),
  );
  const unpriced = Object.entries(models)
    .filter(([, entry]) => entry.cost === null)
    .map(([model]) => model);
  const total = unpriced.length > 0 ? null : Object.values(models).reduce((sum, entry) => sum + (entry.cost ?? 0), 0);
  const batched = [...byModel.values()].some(({ batch }) => batch.input_tokens + batch.output_tokens > 0);
  return {
    currency: prices.currency,
    total,
    ...(batched ? { online_cost: online } : {}),
    models,
    judges: sortedRecord(judgeCosts),
    unpriced_models: unpriced,
  };
}

/**
 * What judge usage cost at `prices`, counting only models with a price: the
 * spend a cost ceiling compares with (a ceiling requires every model of the
 * run to have one).
 */
export function pricedSpend(judges: Readonly<Record<string, JudgeUsageRecord>>, prices: JudgePrices): number {
  let spend = 0;
  for (const usage of Object.values(judges)) {
    for (const [model, tokens] of modelTokensOf(usage))
      spend += tokenCost(tokens, usage.batch_models?.[model] ?? NO_TOKENS, prices, model) ?? 0;
  }
  return spend;
}

/** A judge's tokens by model; tokens its record does not attribute to a model go under UNRECORDED_MODEL. */
function modelTokensOf(usage: JudgeUsageRecord): [string, ModelTokens][] {
  const entries = Object.entries(usage.models ?? {});
  const attributedInput = entries.reduce((sum, [, tokens]) => sum + tokens.input_tokens, 0);
  const attributedOutput = entries.reduce((sum, [, tokens]) => sum + tokens.output_tokens, 0);
  const rest = {
    input_tokens: Math.max(0, usage.input_tokens - attributedInput),
    output_tokens: Math.max(0, usage.output_tokens - attributedOutput),
  };
  return rest.input_tokens + rest.output_tokens > 0 ? [...entries, [UNRECORDED_MODEL, rest]] : entries;
}

/** The cost of a model's tokens, of which `batch` came from batch jobs, at their batch price; null when the model has no price. */
function tokenCost(tokens: ModelTokens, batch: ModelTokens, prices: JudgePrices, model: string): number | null {
  if (tokens.input_tokens === 0 && tokens.output_tokens === 0) return 0;
  const price = Object.hasOwn(prices.models, model) ? prices.models[model] : undefined;
  if (price === undefined) return null;
  const online = priceOf(price, 'online');
  const batched = priceOf(price, 'batch');
  const onlineInput = Math.max(0, tokens.input_tokens - batch.input_tokens);
  const onlineOutput = Math.max(0, tokens.output_tokens - batch.output_tokens);
  return (
    (onlineInput * online.input +
      onlineOutput * online.output +
      batch.input_tokens * batched.input +
      batch.output_tokens * batched.output) /
    1_000_000
  );
}

const NO_TOKENS: ModelTokens = { input_tokens: 0, output_tokens: 0 };

function addTokens(left: ModelTokens, right: ModelTokens): ModelTokens {
  return { input_tokens: left.input_tokens + right.input_tokens, output_tokens: left.output_tokens + right.output_tokens };
}
