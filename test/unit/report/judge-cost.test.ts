import { describe, expect, it } from 'vitest';
import { judgeCost, pricedSpend, UNRECORDED_MODEL } from '../../../shared/report/judge-cost.js';
import { totalJudgeUsage } from '../../../shared/report/judge-usage.js';
import type { JudgePrices } from '../../../shared/schema/judge-prices.js';
import { usage } from './factories.js';

const PRICES: JudgePrices = {
  currency: 'USD',
  models: {
    'gpt-4o-mini': { input_per_million: 0.15, output_per_million: 0.6 },
    'gpt-4o': { input_per_million: 2.5, output_per_million: 10 },
  },
};

describe('judgeCost', () => {
  it('prices each model at its own prices and sums them per judge and in total; cache hits add nothing', () => {
    // Prepare: correctness asked gpt-4o-mini 3 times (2 more answers came from the cache); its variant asked gpt-4o
    const judges = totalJudgeUsage([
      {
        correctness: usage({
          calls: 2,
          cache_hits: 2,
          input_tokens: 1_000_000,
          output_tokens: 100_000,
          models: { 'gpt-4o-mini': { input_tokens: 1_000_000, output_tokens: 100_000 } },
        }),
        'correctness@gpt-4o': usage({
          calls: 1,
          input_tokens: 200_000,
          output_tokens: 10_000,
          models: { 'gpt-4o': { input_tokens: 200_000, output_tokens: 10_000 } },
        }),
      },
      {
        correctness: usage({
          calls: 1,
          input_tokens: 1_000_000,
          output_tokens: 0,
          models: { 'gpt-4o-mini': { input_tokens: 1_000_000, output_tokens: 0 } },
        }),
      },
      { correctness: usage({ cache_hits: 5 }) },
    ]);

    // Act
    const cost = judgeCost(judges, PRICES);

    // Assess: gpt-4o-mini 2 M × 0.15 + 0.1 M × 0.6 = 0.30 + 0.06 = 0.36; gpt-4o 0.2 M × 2.5 + 0.01 M × 10 = 0.5 + 0.1 = 0.6
    expect(cost.models['gpt-4o-mini']).toEqual({ input_tokens: 2_000_000, output_tokens: 100_000, cost: expect.closeTo(0.36, 12) });
    expect(cost.models['gpt-4o']).toEqual({ input_tokens: 200_000, output_tokens: 10_000, cost: expect.closeTo(0.6, 12) });
    expect(cost.judges.correctness?.cost).toBeCloseTo(0.36, 12);
    expect(cost.judges['correctness@gpt-4o']?.cost).toBeCloseTo(0.6, 12);
    expect(cost.total).toBeCloseTo(0.96, 12);
    expect(cost.unpriced_models).toEqual([]);
    expect(cost.currency).toBe('USD');
  });

  it('prices the tokens of answers from batch jobs at the batch price (half, or the configured one) and says what they would have cost on demand', () => {
    // Prepare: 1 M of gpt-4o-mini's 2 M input tokens and all its 0.1 M output tokens came from batch jobs; gpt-4o has batch prices of its own
    const prices: JudgePrices = {
      currency: 'USD',
      models: {
        ...PRICES.models,
        'gpt-4o': { input_per_million: 2.5, output_per_million: 10, batch_input_per_million: 1, batch_output_per_million: 4 },
      },
    };
    const judges = totalJudgeUsage([
      {
        correctness: usage({
          calls: 3,
          input_tokens: 2_000_000,
          output_tokens: 100_000,
          models: { 'gpt-4o-mini': { input_tokens: 2_000_000, output_tokens: 100_000 } },
          batch_models: { 'gpt-4o-mini': { input_tokens: 1_000_000, output_tokens: 100_000 } },
        }),
        'correctness@gpt-4o': usage({
          calls: 1,
          input_tokens: 200_000,
          output_tokens: 10_000,
          models: { 'gpt-4o': { input_tokens: 200_000, output_tokens: 10_000 } },
          batch_models: { 'gpt-4o': { input_tokens: 200_000, output_tokens: 10_000 } },
        }),
      },
    ]);

    // Act
    const cost = judgeCost(judges, prices);

    // Assess: gpt-4o-mini 1 M × 0.15 online + 1 M × 0.075 + 0.1 M × 0.3 in batch = 0.15 + 0.075 + 0.03 = 0.255; gpt-4o 0.2 M × 1 + 0.01 M × 4 = 0.24
    expect(cost.models['gpt-4o-mini']).toEqual({
      input_tokens: 2_000_000,
      output_tokens: 100_000,
      batch_input_tokens: 1_000_000,
      batch_output_tokens: 100_000,
      cost: expect.closeTo(0.255, 12),
    });
    expect(cost.models['gpt-4o']?.cost).toBeCloseTo(0.24, 12);
    expect(cost.total).toBeCloseTo(0.495, 12);
    // On demand: gpt-4o-mini 2 M × 0.15 + 0.1 M × 0.6 = 0.36; gpt-4o 0.2 M × 2.5 + 0.01 M × 10 = 0.6
    expect(cost.online_cost).toBeCloseTo(0.96, 12);
    expect(pricedSpend(judges, prices)).toBeCloseTo(0.495, 12);
  });

  it('reports the cost of a model without a price as unknown, never guessed, and the total as unknown too', () => {
    // Prepare: groundedness asked llama3, which has no price; a judge with cache hits only asked llama3 for nothing
    const judges = {
      correctness: usage({
        calls: 1,
        input_tokens: 1_000_000,
        output_tokens: 0,
        models: { 'gpt-4o-mini': { input_tokens: 1_000_000, output_tokens: 0 } },
      }),
      groundedness: usage({ calls: 1, input_tokens: 500, output_tokens: 50, models: { llama3: { input_tokens: 500, output_tokens: 50 } } }),
      safety: usage({ cache_hits: 3 }),
    };

    // Act
    const cost = judgeCost(judges, PRICES);

    // Assess
    expect(cost.models.llama3).toEqual({ input_tokens: 500, output_tokens: 50, cost: null });
    expect(cost.judges).toEqual({ correctness: { cost: expect.closeTo(0.15, 12) }, groundedness: { cost: null }, safety: { cost: 0 } });
    expect(cost.total).toBeNull();
    expect(cost.unpriced_models).toEqual(['llama3']);
    expect(JSON.stringify(cost)).not.toContain('NaN');
    // The spend a ceiling counts is the priced part only: 1 M × 0.15
    expect(pricedSpend(judges, PRICES)).toBeCloseTo(0.15, 12);
  });

  it('counts tokens a record does not attribute to a model as of an unrecorded model, whose cost is unknown', () => {
    const judges = { correctness: usage({ calls: 1, input_tokens: 1_000, output_tokens: 10 }) };

    const cost = judgeCost(judges, PRICES);

    expect(cost.models).toEqual({ [UNRECORDED_MODEL]: { input_tokens: 1_000, output_tokens: 10, cost: null } });
    expect(cost.total).toBeNull();
  });
});
