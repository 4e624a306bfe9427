import { z } from 'zod';
import type { RateLimits } from './rate-governor.js';

/** A model's limits per minute; at the top level of `judge.rate_limit`, those of every model without its own. */
const limitsShape = {
  requests_per_minute: z.number().positive().optional(),
  tokens_per_minute: z.number().positive().optional(),
};
export const modelRateLimitSchema = z.strictObject(limitsShape);

/**
 * `judge.rate_limit` in the config file: the judge account's limits, to pace
 * requests at them instead of finding them by refusals. Limits are per model,
 * as OpenAI, Azure deployments and Bedrock quotas set them: the top-level
 * values hold for every model without an entry of its own under `models`.
 *
 * ```yaml
 * judge:
 *   rate_limit:
 *     requests_per_minute: 500
 *     tokens_per_minute: 200000
 *     models:
 *       gpt-4o: {requests_per_minute: 100, tokens_per_minute: 30000}
 * ```
 */
export const judgeRateLimitSchema = z.strictObject({
  ...limitsShape,
  models: z.record(z.string().min(1), modelRateLimitSchema).optional(),
});
export type JudgeRateLimit = z.infer<typeof judgeRateLimitSchema>;

/** How the judge workers of a deployment share an account's limits: each of `workers` takes its part. */
export interface RateShare {
  readonly workers: number;
  /** This worker's part of the stack's own judge rate (the stack divided it already). */
  readonly limits?: RateLimits;
}

/** The limits one process applies to `model`: the config's, divided among the workers that share them, and never above this worker's part of the stack's rate. */
export function rateLimitsFor(config: JudgeRateLimit | undefined, model: string, share?: RateShare): RateLimits {
  const own = config?.models !== undefined && Object.hasOwn(config.models, model) ? config.models[model] : undefined;
  const workers = share?.workers ?? 1;
  const part = (perMinute: number | undefined): number | undefined => (perMinute === undefined ? undefined : perMinute / workers);
  return {
    requestsPerMinute: lower(part(own?.requests_per_minute ?? config?.requests_per_minute), share?.limits?.requestsPerMinute),
    tokensPerMinute: lower(part(own?.tokens_per_minute ?? config?.tokens_per_minute), share?.limits?.tokensPerMinute),
  };
}

function lower(left: number | undefined, right: number | undefined): number | undefined {
  if (left === undefined) return right;
  return right === undefined ? left : Math.min(left, right);
}
