import { z } from 'zod';
import { judgeBaseUrlSchema } from './judge-base-url.js';
import { providerFields } from './judge-provider-config.js';
import { judgePricesSchema } from '../schema/judge-prices.js';
import { MAX_CONCURRENCY } from '../schema/work-limits.js';
import { judgeRateLimitSchema } from '../judge-rate/rate-limit-config.js';
import { judgeBatchSchema } from './batch-settings.js';

/**
 * The `judge:` section of the config file: the judge client's settings. The
 * whole file is composed in shared/config/config-schema.ts. Objects are
 * strict so that a misspelt key (`temprature`) is an error instead of a
 * silently ignored setting. There is no API key field on purpose: keys come
 * from the environment only, so a config file can be committed, copied into
 * a report or hashed without leaking one.
 */
/** One HTTP attempt to the judge's server (judge.timeout_ms unless set): a chat completion, or a batch API's JSON call. */
export const DEFAULT_TIMEOUT_MS = 60_000;

export const judgeClientSchema = z.strictObject({
  /** Where the judges run: openai (default), azure or bedrock, with that provider's block (judge-provider-config.ts). */
  ...providerFields,
  base_url: judgeBaseUrlSchema.optional(),
  model: z.string().min(1).optional(),
  temperature: z.number().min(0).max(2).default(0),
  timeout_ms: z.number().int().positive().optional(),
  max_retries: z.number().int().min(0).optional(),
  concurrency: z.number().int().min(1).max(MAX_CONCURRENCY).optional(),
  /** The longest answer asked of the judge model; a verdict with its rationale needs a few hundred. */
  max_tokens: z.number().int().min(16).optional(),
  /** The longest wait honoured from a server's Retry-After. */
  max_retry_wait_ms: z.number().int().min(0).optional(),
  /** The longest one judgment may take, over all its attempts and its repair request. */
  call_deadline_ms: z.number().int().positive().optional(),
  /** Cache answers sampled at a temperature above 0 too (each sample number apart); off by default, so a sampled verdict is drawn anew. */
  cache_sampled: z.boolean().optional(),
  /** Prices per model, for the report's cost estimate and run.max_judge_cost (shared/schema/judge-prices.ts). */
  prices: judgePricesSchema.optional(),
  /** The judge account's requests and tokens per minute, per model (shared/judge-rate/rate-limit-config.ts). */
  rate_limit: judgeRateLimitSchema.optional(),
  /** Judge through the provider's batch API, at its batch price (batch-settings.ts). */
  batch: judgeBatchSchema.optional(),
});
export type JudgeClientSection = z.infer<typeof judgeClientSchema>;
