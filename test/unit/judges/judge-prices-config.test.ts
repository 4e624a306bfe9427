import { describe, expect, it } from 'vitest';
import { parseRunConfig } from '../../../shared/config/index.js';
import { checkJudgeCeiling } from '../../../shared/config/index.js';

const MINI = { input_per_million: 0.15, output_per_million: 0.6 };

describe('judge.prices and run.max_judge_cost in the config', () => {
  it('accepts prices per model with a currency, USD when left out', () => {
    const loaded = parseRunConfig({ judge: { prices: { models: { 'gpt-4o-mini': MINI } } }, run: { max_judge_cost: 2 } }, 'assay.yaml');

    expect(loaded.ok && loaded.value.judge.prices).toEqual({ currency: 'USD', models: { 'gpt-4o-mini': MINI } });
    expect(loaded.ok && loaded.value.run.max_judge_cost).toBe(2);
  });

  it.each([
    [
      'a ceiling without prices',
      { run: { max_judge_cost: 1 } },
      'assay.yaml: field "run.max_judge_cost": needs judge.prices to tell what the judges spend (fix: add judge.prices: {currency: USD, models: {gpt-4o-mini: {input_per_million: ..., output_per_million: ...}}}, or remove run.max_judge_cost)',
    ],
    [
      "a ceiling with no price for a variant's model",
      {
        run: { max_judge_cost: 1 },
        judge: { model: 'gpt-4o-mini', prices: { models: { 'gpt-4o-mini': MINI } } },
        judges: ['correctness', 'groundedness@gpt-4o'],
      },
      'assay.yaml: field "judge.prices.models": has no price for the model "gpt-4o" (asked by judge "groundedness@gpt-4o"), so run.max_judge_cost cannot count its spend',
    ],
    [
      "a ceiling with no price for a judge's own model",
      {
        run: { max_judge_cost: 1 },
        judge: { model: 'gpt-4o', prices: { models: { 'gpt-4o': MINI } } },
        judges: ['safety'],
        judge_settings: { safety: { model: 'llama3' } },
      },
      'has no price for the model "llama3" (asked by judge "safety")',
    ],
    ['a ceiling of 0', { run: { max_judge_cost: 0 } }, 'field "run.max_judge_cost": expected a number > 0, got number 0'],
    [
      'a lower-case currency',
      { judge: { prices: { currency: 'usd', models: {} } } },
      'field "judge.prices.currency": expected a three-letter currency code such as USD, got "usd"',
    ],
    [
      'a negative price',
      { judge: { prices: { models: { m: { input_per_million: -1, output_per_million: 0 } } } } },
      'field "judge.prices.models.m.input_per_million": expected a number >= 0, got number -1',
    ],
    [
      'a misspelt price key',
      { judge: { prices: { models: { m: { input_per_million: 1, output_per_milion: 0 } } } } },
      'field "judge.prices.models.m.output_per_milion": unknown key (fix: remove it or correct its spelling; the keys here are input_per_million, output_per_million, batch_input_per_million, batch_output_per_million)',
    ],
  ])('rejects %s, naming the field and the fix', (_, input, message) => {
    const loaded = parseRunConfig(input, 'assay.yaml');

    expect(loaded.ok).toBe(false);
    expect(loaded.ok ? '' : loaded.error).toContain(message);
  });

  it("needs a price for the run's default model where the run starts: ASSAY_JUDGE_MODEL, else gpt-4o-mini", () => {
    // Prepare: the file alone names no model, so it passes on its own
    const loaded = parseRunConfig(
      { judge: { prices: { models: { 'qwen-max': MINI } } }, run: { max_judge_cost: 1 }, judges: ['safety'] },
      'assay.yaml',
    );
    if (!loaded.ok) throw new Error(loaded.error);

    // Act and assess
    expect(checkJudgeCeiling(loaded.value, 'assay.yaml', { ASSAY_JUDGE_MODEL: 'qwen-max' })).toEqual([]);
    expect(checkJudgeCeiling(loaded.value, 'assay.yaml', {})).toEqual([
      expect.stringContaining('has no price for the model "gpt-4o-mini" (asked by judge "safety")'),
    ]);
    expect(checkJudgeCeiling(loaded.value, 'assay.yaml', { ASSAY_JUDGE_MODEL: 'gpt-4o' })).toEqual([
      'assay.yaml: field "judge.prices.models": has no price for the model "gpt-4o" (asked by judge "safety", the model ASSAY_JUDGE_MODEL sets), so run.max_judge_cost cannot count its spend (fix: add gpt-4o: {input_per_million: ..., output_per_million: ...} with its provider\'s prices, or remove run.max_judge_cost)',
    ]);
  });
});
