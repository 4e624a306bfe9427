import { describe, expect, it } from 'vitest';
import { parseRunConfig } from '../../../shared/config/index.js';
import { rateLimitsFor } from '../../../shared/judge-rate/rate-limit-config.js';

describe('judge.rate_limit in the config', () => {
  it('gives every model the top-level limits, and a model with its own entry its own', () => {
    const loaded = parseRunConfig(
      {
        judge: { rate_limit: { requests_per_minute: 500, tokens_per_minute: 200_000, models: { 'gpt-4o': { requests_per_minute: 100 } } } },
      },
      'assay.yaml',
    );
    const rateLimit = loaded.ok ? loaded.value.judge.rate_limit : undefined;

    expect(rateLimitsFor(rateLimit, 'gpt-4o-mini')).toEqual({ requestsPerMinute: 500, tokensPerMinute: 200_000 });
    expect(rateLimitsFor(rateLimit, 'gpt-4o')).toEqual({ requestsPerMinute: 100, tokensPerMinute: 200_000 });
    expect(rateLimitsFor(undefined, 'gpt-4o')).toEqual({ requestsPerMinute: undefined, tokensPerMinute: undefined });
  });

  it("divides the config's limits among a deployment's workers, and keeps the lower of that and the worker's part of the stack's rate", () => {
    const rateLimit = { requests_per_minute: 600, tokens_per_minute: 100_000 };

    expect(rateLimitsFor(rateLimit, 'm', { workers: 10 })).toEqual({ requestsPerMinute: 60, tokensPerMinute: 10_000 });
    expect(rateLimitsFor(rateLimit, 'm', { workers: 10, limits: { requestsPerMinute: 30 } })).toEqual({
      requestsPerMinute: 30,
      tokensPerMinute: 10_000,
    });
    expect(rateLimitsFor(undefined, 'm', { workers: 10, limits: { tokensPerMinute: 5_000 } })).toEqual({
      requestsPerMinute: undefined,
      tokensPerMinute: 5_000,
    });
  });

  it.each([
    [
      { judge: { rate_limit: { requests_per_minute: 0 } } },
      /field "judge\.rate_limit\.requests_per_minute": expected a number > 0, got number 0 \(fix: give the requests a minute/,
    ],
    [
      { judge: { rate_limit: { request_per_minute: 500 } } },
      /field "judge\.rate_limit\.request_per_minute": unknown key \(fix: remove it or correct its spelling; the keys here are requests_per_minute, tokens_per_minute, models\)/,
    ],
    [
      { judge: { rate_limit: { models: { 'gpt-4o': { tokens_per_minute: -5 } } } } },
      /field "judge\.rate_limit\.models\.gpt-4o\.tokens_per_minute": expected a number > 0, got number -5 \(fix: give the tokens a minute the judge account allows for this model/,
    ],
  ])('refuses %j naming the field and how to fix it', (input, message) => {
    const loaded = parseRunConfig(input, 'assay.yaml');

    expect(loaded.ok ? '' : loaded.error).toMatch(message);
  });
});
