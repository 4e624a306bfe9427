import type { ObjectStore } from '../ports/object-store.js';
import { canonicalBaseUrl, JudgeCache } from './judge-cache.js';
import { JudgeClient } from './judge-client.js';
import pLimit from 'p-limit';
import type { JudgeConfig } from './judge-config.js';
import { selectJudges } from './judge-selection.js';
import { JudgeService } from './judge-service.js';
import { JudgeServicePool, type ResolvedClientSettings } from './judge-service-pool.js';
import type { JudgeBackend } from './run-judges.js';
import { sharedGovernor } from './rate/governor-registry.js';
import { rateLimitsFor, type RateShare } from './rate/rate-limit-config.js';

/**
 * Where the judge client's settings come from: the environment variables
 * every OpenAI client reads (OPENAI_BASE_URL, OPENAI_API_KEY) plus
 * ASSAY_JUDGE_MODEL, then the config file's `judge:` section, then defaults.
 * The environment wins over the file so that a CI job can point a committed
 * config at another server without editing it. The key comes only from the
 * environment. Without a key the offline lexical judge is used, and the
 * summary says so. A judge with settings of its own (judge-overrides.ts)
 * gets a service of its own from the pool; the environment overrides only
 * the run's defaults, never a judge's own model or server.
 *
 * Every client of the process that calls one server and model shares that
 * server's rate governor (rate/governor-registry.ts), paced at the config's
 * `judge.rate_limit` for the model when it gives one; `share` divides those
 * limits among the workers of a deployment (each Lambda container takes its
 * part).
 */

export const DEFAULT_JUDGE_MODEL = 'gpt-4o-mini';
export const DEFAULT_TIMEOUT_MS = 60_000;
export const DEFAULT_MAX_RETRIES = 6;
export const DEFAULT_CONCURRENCY = 8;
/** Room for a verdict and a rationale of a few sentences, with margin for verbose models. */
export const DEFAULT_MAX_TOKENS = 1024;
/** Waits asked for beyond this are cut to it: a worker's time is better spent on other cases. */
export const DEFAULT_MAX_RETRY_WAIT_MS = 30_000;
/** Below the judge worker's 180 s Lambda timeout, with room for the case's other work. */
export const DEFAULT_CALL_DEADLINE_MS = 120_000;

export interface JudgeBackendChoice {
  readonly backend: JudgeBackend;
  /** One line for logs and reports: which judge, where; never the key. */
  readonly summary: string;
}

export interface JudgeEnvironment {
  readonly OPENAI_BASE_URL?: string | undefined;
  readonly OPENAI_API_KEY?: string | undefined;
  readonly ASSAY_JUDGE_MODEL?: string | undefined;
}

/**
 * Builds the judge backend. `store` holds the judge cache (`cache/judges/`);
 * undefined turns the cache off (`--no-cache`).
 */
export function chooseJudgeBackend(config: JudgeConfig, environment: JudgeEnvironment, store: ObjectStore | undefined, share?: RateShare): JudgeBackendChoice {
  const apiKey = nonEmpty(environment.OPENAI_API_KEY);
  if (apiKey === undefined) {
    return { backend: { kind: 'lexical' }, summary: 'lexical judge (non-LLM approximations): OPENAI_API_KEY is not set' };
  }
  const defaults: ResolvedClientSettings = {
    baseUrl: nonEmpty(environment.OPENAI_BASE_URL) ?? config.judge.base_url,
    model: nonEmpty(environment.ASSAY_JUDGE_MODEL) ?? config.judge.model ?? DEFAULT_JUDGE_MODEL,
    temperature: config.judge.temperature,
    maxTokens: config.judge.max_tokens ?? DEFAULT_MAX_TOKENS,
  };
  const concurrency = config.judge.concurrency ?? DEFAULT_CONCURRENCY;
  // One limit for every service: judges with their own model still share the run's rate pressure.
  const limit = pLimit(concurrency);
  const cache = new JudgeCache(store);
  const maxRetryWaitMs = config.judge.max_retry_wait_ms ?? DEFAULT_MAX_RETRY_WAIT_MS;
  const pool = new JudgeServicePool(defaults, (settings) => {
    const governor = sharedGovernor(`${canonicalBaseUrl(settings.baseUrl)} ${settings.model}`, {
      maxInFlight: concurrency,
      limits: rateLimitsFor(config.judge.rate_limit, settings.model, share),
      maxHoldMs: maxRetryWaitMs,
    });
    const client = new JudgeClient({
      baseUrl: settings.baseUrl,
      apiKey,
      model: settings.model,
      temperature: settings.temperature,
      timeoutMs: config.judge.timeout_ms ?? DEFAULT_TIMEOUT_MS,
      maxRetries: config.judge.max_retries ?? DEFAULT_MAX_RETRIES,
      maxTokens: settings.maxTokens,
      maxRetryWaitMs,
      callDeadlineMs: config.judge.call_deadline_ms ?? DEFAULT_CALL_DEADLINE_MS,
      governor,
    });
    const serviceSettings = {
      baseUrl: canonicalBaseUrl(settings.baseUrl),
      model: settings.model,
      temperature: settings.temperature,
      cacheSampled: config.judge.cache_sampled ?? false,
      concurrency,
    };
    return new JudgeService(client, cache, serviceSettings, limit);
  });
  const serverHost = new URL(defaults.baseUrl ?? 'https://api.openai.com/v1').host;
  const own = ownSettingsCount(config);
  const others = own === 0 ? '' : `; ${own} judge${own === 1 ? ' has' : 's have'} settings of ${own === 1 ? 'its' : 'their'} own`;
  const cached = store === undefined ? 'cache off' : 'cached';
  return {
    backend: { kind: 'llm', service: pool },
    summary: `LLM judge ${defaults.model} at ${serverHost}, temperature ${defaults.temperature}, ${cached}${others}`,
  };
}

/** How many of the run's judges set a model, server, temperature or answer length of their own. */
function ownSettingsCount(config: JudgeConfig): number {
  return selectJudges(config).filter((judge) => (judge.kind === 'llm' || judge.kind === 'dag') && judge.client !== undefined).length;
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}
