import { z } from 'zod';

/**
 * `judge.prices` of the config: what a million tokens of each judge model
 * cost, for the report's cost estimate and for `run.max_judge_cost`. A model
 * without an entry has no price: its cost is reported as unknown, never
 * guessed. Prices are per model name as the judge client sends it (the run's
 * `judge.model`, a judge's own `model`, or the model of a `judge@model`
 * variant).
 */
export const modelPriceSchema = z.strictObject({
  input_per_million: z.number().min(0),
  output_per_million: z.number().min(0),
  /** The model's batch prices; absent: half the prices above, the batch discount OpenAI, Azure OpenAI and Bedrock give today. */
  batch_input_per_million: z.number().min(0).optional(),
  batch_output_per_million: z.number().min(0).optional(),
});
export type ModelPrice = z.infer<typeof modelPriceSchema>;

export const judgePricesSchema = z.strictObject({
  /** The currency of every price, and of run.max_judge_cost: a three-letter code such as USD. */
  currency: z
    .string()
    .regex(/^[A-Z]{3}$/, 'expected a three-letter currency code such as USD')
    .default('USD'),
  models: z.record(z.string().min(1), modelPriceSchema),
});
export type JudgePrices = z.infer<typeof judgePricesSchema>;

const spendSettingsSchema = z.object({
  judge: z.object({ prices: judgePricesSchema.optional() }).optional(),
  run: z.object({ max_judge_cost: z.number().positive().optional() }).optional(),
});

/** A stored run config's judge.prices and run.max_judge_cost (the config was checked when the run started). */
export function spendSettingsOf(config: Readonly<Record<string, unknown>>): { readonly prices?: JudgePrices; readonly maxCost?: number } {
  const settings = spendSettingsSchema.parse(config);
  const prices = settings.judge?.prices;
  const maxCost = settings.run?.max_judge_cost;
  return { ...(prices === undefined ? {} : { prices }), ...(maxCost === undefined ? {} : { maxCost }) };
}

/** The share of the on-demand price a batch job's tokens cost where a model's batch prices are not configured. */
export const DEFAULT_BATCH_PRICE_SHARE = 0.5;

/** A model's price of a million input and output tokens, on demand or in batch jobs. */
export function priceOf(price: ModelPrice, pricing: 'online' | 'batch'): { input: number; output: number } {
  if (pricing === 'online') return { input: price.input_per_million, output: price.output_per_million };
  return {
    input: price.batch_input_per_million ?? price.input_per_million * DEFAULT_BATCH_PRICE_SHARE,
    output: price.batch_output_per_million ?? price.output_per_million * DEFAULT_BATCH_PRICE_SHARE,
  };
}
