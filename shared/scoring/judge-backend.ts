import type { ObjectStore } from '../ports/object-store.js';
import { JudgeCache } from '../judge-client/judge-cache.js';
import pLimit from 'p-limit';
import { DEFAULT_TIMEOUT_MS, type JudgeClientSection } from '../judge-client/judge-client-schema.js';
import { chooseProvider, type JudgeEnvironment, type JudgeProvider } from '../judge-client/judge-provider.js';
import { JudgeService } from './judge-service.js';
import { JudgeServicePool, type ResolvedClientSettings } from './judge-service-pool.js';
import { batchBodyModel, createBatchCompleter, createJudgeCompleter, serverOf } from './judge-transports.js';
import { batchSettingsOf } from '../judge-client/batch-settings.js';
import { storedAnswers } from '../batch-providers/stored-answers.js';
import { sharedGovernor } from '../judge-rate/governor-registry.js';
import { rateLimitsFor, type RateShare } from '../judge-rate/rate-limit-config.js';
import type { JudgeDefinition } from '../judges/judge-definition.js';
import type { JudgeBackend } from './run-judges.js';

export { DEFAULT_JUDGE_MODEL, judgeEnvironmentOf, type JudgeEnvironment } from '../judge-client/judge-provider.js';

/**
 * Where the judge client's settings come from: the environment (the provider,
 * its key, OPENAI_BASE_URL, ASSAY_JUDGE_MODEL: judge-provider.ts), then the
 * config file's `judge:` section, then defaults. The environment wins over
 * the file so that a CI job can point a committed config at another server
 * without editing it. Keys come only from the environment. Without the
 * provider's key the offline lexical judge is used, and the summary says so.
 * A judge with settings of its own (judge-overrides.ts) gets a service of its
 * own from the pool; the environment overrides only the run's defaults,
 * never a judge's own model or server.
 *
 * Every client of the process that calls one server and model shares that
 * server's rate governor (judge-rate/governor-registry.ts), paced at the config's
 * `judge.rate_limit` for the model when it gives one; `share` divides those
 * limits among the workers of a deployment (each Lambda container takes its
 * part).
 */

export const DEFAULT_MAX_RETRIES = 6;
export const DEFAULT_CONCURRENCY = 8;
/** Room for a verdict and a rationale of a few sentences, with margin for verbose models. */
export const DEFAULT_MAX_TOKENS = 1024;
/** Waits asked for beyond this are cut to it: a worker's time is better spent on other cases. */
export const DEFAULT_MAX_RETRY_WAIT_MS = 30_000;
/** Below the judge worker's 180 s Lambda timeout, with room for the case's other work. */
export const DEFAULT_CALL_DEADLINE_MS = 120_000;

/** How the judge line of a run an LLM judge judges begins, in its manifest and report. */
export const LLM_JUDGE_LINE_START = 'LLM judge';

export interface JudgeBackendChoice {
  readonly backend: JudgeBackend;
  /** One line for logs and reports: which judge, where; never the key. */
  readonly summary: string;
}

/** Judge settings that cannot make a judge (an unknown provider, a provider without its settings); the CLI reports it as a usage error. */
export class JudgeSetupError extends Error {
  override readonly name = 'JudgeSetupError';
}

/**
 * Builds the judge backend from a config's `judge:` section. `store` holds
 * the judge cache (`cache/judges/`); undefined turns the cache off
 * (`--no-cache`). The summary counts the run's `judges` that have settings
 * of their own. Throws JudgeSetupError when the settings name a provider
 * without what it needs.
 */
export function chooseJudgeBackend(
  config: { readonly judge: JudgeClientSection },
  environment: JudgeEnvironment,
  store: ObjectStore | undefined,
  share?: RateShare,
  judges: readonly JudgeDefinition[] = [],
  runStore?: ObjectStore,
): JudgeBackendChoice {
  const choice = chooseProvider(config.judge, environment);
  if (!choice.ok) {
    if ('error' in choice) throw new JudgeSetupError(choice.error);
    return { backend: { kind: 'lexical' }, summary: `lexical judge (non-LLM approximations): ${choice.lexical}` };
  }
  const { provider, model } = choice;
  const batch = batchSettingsOf(config.judge.batch);
  const defaults: ResolvedClientSettings = {
    baseUrl: provider.kind === 'openai' ? provider.baseUrl : undefined,
    model,
    temperature: config.judge.temperature,
    maxTokens: config.judge.max_tokens ?? DEFAULT_MAX_TOKENS,
  };
  const concurrency = config.judge.concurrency ?? DEFAULT_CONCURRENCY;
  // One limit for every service: judges with their own model still share the run's rate pressure.
  const limit = pLimit(concurrency);
  const cache = new JudgeCache(store);
  const limits = {
    timeoutMs: config.judge.timeout_ms ?? DEFAULT_TIMEOUT_MS,
    maxRetries: config.judge.max_retries ?? DEFAULT_MAX_RETRIES,
    maxRetryWaitMs: config.judge.max_retry_wait_ms ?? DEFAULT_MAX_RETRY_WAIT_MS,
    callDeadlineMs: config.judge.call_deadline_ms ?? DEFAULT_CALL_DEADLINE_MS,
  };
  const pool = new JudgeServicePool(defaults, (settings) => {
    const server = serverOf(provider, settings, model);
    const governor = sharedGovernor(`${server} ${settings.model}`, {
      maxInFlight: concurrency,
      limits: rateLimitsFor(config.judge.rate_limit, settings.model, share),
      maxHoldMs: limits.maxRetryWaitMs,
    });
    const online = createJudgeCompleter(provider, settings, limits, model, governor);
    const client =
      batch === undefined
        ? online
        : createBatchCompleter(
            provider.kind,
            {
              bodyModel: batchBodyModel(provider, settings, model),
              model: settings.model,
              temperature: settings.temperature,
              maxTokens: settings.maxTokens,
              answerOf: runStore === undefined ? noRunStore : storedAnswers(runStore),
            },
            { client: online, failedLines: batch.failedLines === 'online', unansweredLines: batch.unansweredLines === 'online' },
          );
    const serviceSettings = {
      provider: provider.kind,
      baseUrl: server,
      model: settings.model,
      temperature: settings.temperature,
      cacheSampled: config.judge.cache_sampled ?? false,
      concurrency,
    };
    return new JudgeService(client, cache, serviceSettings, limit);
  });
  const own = judges.filter((judge) => (judge.kind === 'llm' || judge.kind === 'dag') && judge.client !== undefined).length;
  const others = own === 0 ? '' : `; ${own} judge${own === 1 ? ' has' : 's have'} settings of ${own === 1 ? 'its' : 'their'} own`;
  const cached = store === undefined ? 'cache off' : 'cached';
  return {
    backend: { kind: 'llm', service: pool },
    summary: `${LLM_JUDGE_LINE_START} ${model} ${placeOf(provider)}, temperature ${defaults.temperature}, ${cached}${batch === undefined ? '' : ', in batch jobs'}${others}`,
  };
}

/**
 * Which backend the settings give, without building it: the LLM judge when
 * the provider has what it needs, else the lexical judge. Throws
 * JudgeSetupError as chooseJudgeBackend does.
 */
export function judgeBackendKind(judge: JudgeClientSection, environment: JudgeEnvironment): JudgeBackend['kind'] {
  const choice = chooseProvider(judge, environment);
  if (choice.ok) return 'llm';
  if ('error' in choice) throw new JudgeSetupError(choice.error);
  return 'lexical';
}

/** A judging built for its summary alone (runJudgeSummary) has no run store; a judgment through it is a bug. */
function noRunStore(): never {
  throw new Error('A batch-judged run needs its store for the answers of its jobs: pass runStore to chooseJudgeBackend');
}

/** Where the judge runs, for the judge line of logs and reports. */
function placeOf(provider: JudgeProvider): string {
  switch (provider.kind) {
    case 'openai':
      return `at ${new URL(provider.baseUrl ?? 'https://api.openai.com/v1').host}`;
    case 'azure':
      return `on Azure OpenAI deployment ${provider.azure.deployment} (api-version ${provider.azure.apiVersion})`;
    case 'bedrock':
      return `on Amazon Bedrock (${provider.region}${provider.endpoint === undefined ? '' : `, endpoint ${new URL(provider.endpoint).host}`})`;
  }
}
