import { describe, expect, it } from 'vitest';
import {
  addUsage,
  addUsages,
  addUsagesByJudge,
  emptyUsage,
  judgmentUsage,
  type JudgeUsage,
  type JudgmentCost,
} from '../../../shared/scoring/judge-usage-tally.js';

/** A judgment's cost: a fresh online call to judge-model that spent 100 input and 20 output tokens, unless told otherwise. */
function cost(overrides: Partial<JudgmentCost> = {}): JudgmentCost {
  return { cached: false, retries: 0, rateLimited: 0, inputTokens: 100, outputTokens: 20, model: 'judge-model', ...overrides };
}

/** What the default cost() adds: one call, its tokens under judge-model. */
const ONE_CALL: JudgeUsage = {
  calls: 1,
  cache_hits: 0,
  retries: 0,
  errors: 0,
  input_tokens: 100,
  output_tokens: 20,
  models: { 'judge-model': { input_tokens: 100, output_tokens: 20 } },
};

function usage(overrides: Partial<JudgeUsage> = {}): JudgeUsage {
  return { ...emptyUsage(), ...overrides };
}

describe('emptyUsage', () => {
  it('counts nothing, and has no rate_limited, models or batch_models', () => {
    expect(emptyUsage()).toEqual({ calls: 0, cache_hits: 0, retries: 0, errors: 0, input_tokens: 0, output_tokens: 0 });
  });

  it('is a new record each time', () => {
    const first = emptyUsage();
    first.calls = 3;
    expect(emptyUsage().calls).toBe(0);
  });
});

describe('judgmentUsage', () => {
  it.each<[string, JudgmentCost, boolean, JudgeUsage]>([
    ['a call', cost(), false, ONE_CALL],
    ['a cache hit: no call, no tokens, no model', cost({ cached: true, inputTokens: 0, outputTokens: 0 }), false, usage({ cache_hits: 1 })],
    ['a cached answer that failed', cost({ cached: true, inputTokens: 0, outputTokens: 0 }), true, usage({ cache_hits: 1, errors: 1 })],
    [
      'a judgment shared with an identical call in flight: no call, no cache hit',
      cost({ cached: true, shared: true, inputTokens: 0, outputTokens: 0 }),
      false,
      usage({ shared_in_run: 1 }),
    ],
    [
      'a shared judgment whose call failed: its call counts the failure, once',
      cost({ cached: true, shared: true, inputTokens: 0, outputTokens: 0 }),
      true,
      usage({ shared_in_run: 1 }),
    ],
    [
      'a failed call that spent nothing: its model is named all the same',
      cost({ inputTokens: 0, outputTokens: 0, retries: 2 }),
      true,
      {
        calls: 1,
        cache_hits: 0,
        retries: 2,
        errors: 1,
        input_tokens: 0,
        output_tokens: 0,
        models: { 'judge-model': { input_tokens: 0, output_tokens: 0 } },
      },
    ],
    [
      'a call refused twice as over the rate limit, then answered',
      cost({ retries: 2, rateLimited: 2 }),
      false,
      {
        calls: 1,
        cache_hits: 0,
        retries: 2,
        errors: 0,
        input_tokens: 100,
        output_tokens: 20,
        rate_limited: 2,
        models: { 'judge-model': { input_tokens: 100, output_tokens: 20 } },
      },
    ],
    [
      "a batch job's answer: its tokens under batch_models too",
      cost({ pricing: 'batch' }),
      false,
      { ...ONE_CALL, batch_models: { 'judge-model': { input_tokens: 100, output_tokens: 20 } } },
    ],
    ['an online answer priced as such: no batch_models', cost({ pricing: 'online' }), false, ONE_CALL],
    [
      'a call with who answered it: one call for that identity',
      cost({ answeredBy: { model: 'judge-model-2026', system_fingerprint: 'fp_1' } }),
      false,
      { ...ONE_CALL, answered_by: [{ model: 'judge-model-2026', system_fingerprint: 'fp_1', calls: 1 }] },
    ],
    [
      'a failed call, whoever answered it: no identity, since no verdict came of it',
      cost({ answeredBy: { model: 'judge-model-2026' } }),
      true,
      { ...ONE_CALL, errors: 1 },
    ],
  ])('counts %s', (_described, judgment, failed, expected) => {
    expect(judgmentUsage(judgment, failed)).toEqual(expected);
  });
});

describe('addUsage', () => {
  it('adds every count', () => {
    // 1+2 calls, 3+4 cache hits, 5+6 retries, 7+8 errors, 100+200 input and 10+20 output tokens
    const left = usage({ calls: 1, cache_hits: 3, retries: 5, errors: 7, input_tokens: 100, output_tokens: 10 });
    const right = usage({ calls: 2, cache_hits: 4, retries: 6, errors: 8, input_tokens: 200, output_tokens: 20 });
    expect(addUsage(left, right)).toEqual({ calls: 3, cache_hits: 7, retries: 11, errors: 15, input_tokens: 300, output_tokens: 30 });
  });

  it.each<[string, JudgeUsage, JudgeUsage, number | undefined]>([
    ['neither has it', usage(), usage(), undefined],
    ['only the left has it', usage({ rate_limited: 2 }), usage(), 2],
    ['only the right has it', usage(), usage({ rate_limited: 3 }), 3],
    ['both have it', usage({ rate_limited: 2 }), usage({ rate_limited: 3 }), 5],
    ['it is a recorded zero', usage({ rate_limited: 0 }), usage(), 0],
  ])('keeps rate_limited when %s', (_described, left, right, expected) => {
    expect(addUsage(left, right).rate_limited).toBe(expected);
    expect(Object.hasOwn(addUsage(left, right), 'rate_limited')).toBe(expected !== undefined);
  });

  it.each<[string, JudgeUsage, JudgeUsage, number | undefined]>([
    ['neither has it', usage(), usage(), undefined],
    ['only the left has it', usage({ shared_in_run: 1 }), usage(), 1],
    ['both have it', usage({ shared_in_run: 1 }), usage({ shared_in_run: 2 }), 3],
  ])('keeps shared_in_run when %s', (_described, left, right, expected) => {
    expect(addUsage(left, right).shared_in_run).toBe(expected);
    expect(Object.hasOwn(addUsage(left, right), 'shared_in_run')).toBe(expected !== undefined);
  });

  it('adds tokens per model, the models in the order first seen', () => {
    // Prepare: model-b on both sides, model-a and model-c on one each
    const left = usage({ models: { 'model-b': { input_tokens: 1, output_tokens: 2 }, 'model-a': { input_tokens: 3, output_tokens: 4 } } });
    const right = usage({
      models: { 'model-c': { input_tokens: 5, output_tokens: 6 }, 'model-b': { input_tokens: 10, output_tokens: 20 } },
    });

    // Act
    const sum = addUsage(left, right);

    // Assess
    expect(sum.models).toEqual({
      'model-b': { input_tokens: 11, output_tokens: 22 },
      'model-a': { input_tokens: 3, output_tokens: 4 },
      'model-c': { input_tokens: 5, output_tokens: 6 },
    });
    expect(Object.keys(sum.models ?? {})).toEqual(['model-b', 'model-a', 'model-c']);
    expect(sum.batch_models).toBeUndefined();
  });

  it('adds batch tokens per model apart from all tokens', () => {
    const left = usage({ batch_models: { m: { input_tokens: 1, output_tokens: 1 } } });
    const right = usage({ batch_models: { m: { input_tokens: 2, output_tokens: 3 } } });
    expect(addUsage(left, right)).toEqual(usage({ batch_models: { m: { input_tokens: 3, output_tokens: 4 } } }));
  });

  it('writes its fields in the order of a usage record: counts, rate_limited, shared_in_run, models, batch_models', () => {
    const left = usage({
      models: { m: { input_tokens: 1, output_tokens: 1 } },
      batch_models: { m: { input_tokens: 1, output_tokens: 1 } },
    });
    const right = usage({ rate_limited: 1, shared_in_run: 1 });
    expect(Object.keys(addUsage(left, right))).toEqual([
      'calls',
      'cache_hits',
      'retries',
      'errors',
      'input_tokens',
      'output_tokens',
      'rate_limited',
      'shared_in_run',
      'models',
      'batch_models',
    ]);
  });

  it('adds the calls of each identity, told apart by model and fingerprint, in the order first seen', () => {
    // Prepare: fp_1 on both sides; the same model without a fingerprint is another identity
    const left = usage({
      answered_by: [
        { model: 'm', system_fingerprint: 'fp_1', calls: 2 },
        { model: 'm', calls: 1 },
      ],
    });
    const right = usage({
      answered_by: [
        { model: 'm', system_fingerprint: 'fp_2', calls: 4 },
        { model: 'm', system_fingerprint: 'fp_1', calls: 3 },
      ],
    });

    // Act
    const sum = addUsage(left, right);

    // Assess
    expect(sum.answered_by).toEqual([
      { model: 'm', system_fingerprint: 'fp_1', calls: 5 },
      { model: 'm', calls: 1 },
      { model: 'm', system_fingerprint: 'fp_2', calls: 4 },
    ]);
    expect(addUsage(usage(), usage()).answered_by).toBeUndefined();
  });

  it('changes neither of its arguments', () => {
    const left = usage({ calls: 1, models: { m: { input_tokens: 1, output_tokens: 1 } } });
    const right = usage({ calls: 2, models: { m: { input_tokens: 2, output_tokens: 2 } } });
    addUsage(left, right);
    expect([left, right]).toEqual([
      usage({ calls: 1, models: { m: { input_tokens: 1, output_tokens: 1 } } }),
      usage({ calls: 2, models: { m: { input_tokens: 2, output_tokens: 2 } } }),
    ]);
  });
});

describe('addUsages', () => {
  it('is the empty usage for no usage', () => {
    expect(addUsages([])).toEqual(emptyUsage());
  });

  it('counts a case of judgments as the judgments one by one', () => {
    // Prepare: two calls (one refused once as over the rate limit, one failed), a cache hit, and a batch answer of another model
    const judgments = [
      judgmentUsage(cost({ retries: 1, rateLimited: 1 }), false),
      judgmentUsage(cost({ inputTokens: 50, outputTokens: 0 }), true),
      judgmentUsage(cost({ cached: true, inputTokens: 0, outputTokens: 0 }), false),
      judgmentUsage(cost({ model: 'batch-model', pricing: 'batch' }), false),
    ];

    // Act
    const total = addUsages(judgments);

    // Assess: 3 calls, 1 cache hit, 1 retry, 1 error; input 100 + 50 + 0 + 100, output 20 + 0 + 0 + 20
    expect(total).toEqual({
      calls: 3,
      cache_hits: 1,
      retries: 1,
      errors: 1,
      input_tokens: 250,
      output_tokens: 40,
      rate_limited: 1,
      models: { 'judge-model': { input_tokens: 150, output_tokens: 20 }, 'batch-model': { input_tokens: 100, output_tokens: 20 } },
      batch_models: { 'batch-model': { input_tokens: 100, output_tokens: 20 } },
    });
  });
});

describe('addUsagesByJudge', () => {
  it('sums each judge over the records, judges in the order first seen', () => {
    const records: Record<string, JudgeUsage>[] = [
      { relevance: usage({ calls: 1 }) },
      { groundedness: usage({ calls: 2 }), relevance: usage({ cache_hits: 1 }) },
    ];
    const total = addUsagesByJudge(records);
    expect(total).toEqual({ relevance: usage({ calls: 1, cache_hits: 1 }), groundedness: usage({ calls: 2 }) });
    expect(Object.keys(total)).toEqual(['relevance', 'groundedness']);
  });

  it('is empty for no record', () => {
    expect(addUsagesByJudge([])).toEqual({});
  });
});
