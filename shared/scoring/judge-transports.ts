import type { CallDeadlineOptions } from '../judge-answers/call-deadline.js';
import { canonicalBaseUrl } from '../judge-client/judge-cache.js';
import type { CompletionRequest, JudgeCompleter, JudgeCompletion } from '../judge-answers/judge-completion.js';
import type { JudgeClientSettings } from '../judge-client/judge-client.js';
import type { JudgeProvider } from '../judge-client/judge-provider.js';
import type { ResolvedClientSettings } from './judge-service-pool.js';
import type { RateGovernor } from '../judge-rate/rate-governor.js';
import type { ChatBatchCompleterSettings } from '../batch-providers/chat-batch-completer.js';

/**
 * The judge client of one setting (model, temperature, answer length) on a
 * provider: the openai SDK for OpenAI-compatible servers and Azure OpenAI, the
 * Bedrock Converse client for Amazon Bedrock. Each is loaded on its first
 * judgment (the openai SDK, or the Bedrock client and the AWS SDK with it),
 * so a run that makes no judge call, or calls another provider, never
 * compiles it.
 */

export interface TransportLimits {
  readonly timeoutMs: number;
  readonly maxRetries: number;
  readonly maxRetryWaitMs: number;
  readonly callDeadlineMs: number;
}

/**
 * `governor` paces every HTTP attempt (one per server and model in the process).
 * `defaultModel` is the run's: on Azure a judge with another model of its own
 * is sent to the deployment named like that model (what the SDK does without
 * a deployment), since a deployment serves one model.
 */
export function createJudgeCompleter(
  provider: JudgeProvider,
  settings: ResolvedClientSettings,
  limits: TransportLimits,
  defaultModel: string,
  governor?: RateGovernor,
): JudgeCompleter {
  const common = {
    model: settings.model,
    temperature: settings.temperature,
    maxTokens: settings.maxTokens,
    timeoutMs: limits.timeoutMs,
    maxRetries: limits.maxRetries,
    callDeadlineMs: limits.callDeadlineMs,
    governor,
  };
  switch (provider.kind) {
    case 'openai':
      return openAiClient({ ...common, baseUrl: settings.baseUrl, apiKey: provider.apiKey, maxRetryWaitMs: limits.maxRetryWaitMs });
    case 'azure': {
      const deployment = deploymentFor(provider.azure.deployment, settings.model, defaultModel);
      return openAiClient({
        ...common,
        baseUrl: undefined,
        apiKey: provider.apiKey,
        maxRetryWaitMs: limits.maxRetryWaitMs,
        azure: { ...provider.azure, deployment },
      });
    }
    case 'bedrock':
      return new LazyCompleter(async () => {
        const { BedrockJudgeClient } = await import('../judge-client/bedrock-judge-client.js');
        return new BedrockJudgeClient({
          ...common,
          region: provider.region,
          endpoint: provider.endpoint,
          httpVersion: provider.httpVersion,
        });
      });
  }
}

/**
 * The judge server as the cache key names it: an answer of one provider,
 * resource, deployment or region is never served for another. Never a key,
 * user info or query string.
 */
export function serverOf(provider: JudgeProvider, settings: ResolvedClientSettings, defaultModel: string): string {
  switch (provider.kind) {
    case 'openai':
      return canonicalBaseUrl(settings.baseUrl);
    case 'azure': {
      const deployment = deploymentFor(provider.azure.deployment, settings.model, defaultModel);
      return canonicalBaseUrl(`${provider.azure.endpoint.replace(/\/+$/, '')}/openai/deployments/${encodeURIComponent(deployment)}`);
    }
    case 'bedrock':
      return canonicalBaseUrl(provider.endpoint ?? `https://bedrock-runtime.${provider.region}.amazonaws.com`);
  }
}

/** The model a batch line names: the model, or on Azure OpenAI the deployment (a Global Batch one) that serves it. */
export function batchBodyModel(provider: JudgeProvider, settings: ResolvedClientSettings, defaultModel: string): string {
  return provider.kind === 'azure' ? deploymentFor(provider.azure.deployment, settings.model, defaultModel) : settings.model;
}

/** The online client of a batch-judged run, and for what it judges. */
export interface BatchOnline {
  readonly client: JudgeCompleter;
  /** `judge.batch.failed_lines: online`: the lines the jobs did not run are judged by it. */
  readonly failedLines: boolean;
  /** `judge.batch.unanswered_lines: online`: the lines the one resubmission did not run either are judged by it. */
  readonly unansweredLines: boolean;
}

/**
 * The judge client of a batch-judged run: judgments replayed from the
 * answers of its batch jobs, on the provider's wire (chat completions:
 * batch-providers/chat-batch-completer.ts; Bedrock's Converse:
 * bedrock-batch-completer.ts), loaded on the first judgment like the online
 * clients. The online client judges the requests of a round below the
 * provider's minimum a job (a case sent with `judge_online`), and the lines
 * the jobs did not run under `judge.batch.failed_lines: online`.
 */
export function createBatchCompleter(
  provider: JudgeProvider['kind'],
  settings: Omit<ChatBatchCompleterSettings, 'online' | 'belowMinimum'>,
  online: BatchOnline,
): JudgeCompleter {
  const onlineFor = {
    belowMinimum: online.client,
    ...(online.failedLines ? { online: online.client } : {}),
    ...(online.unansweredLines ? { unanswered: online.client } : {}),
  };
  if (provider === 'bedrock') {
    return new LazyCompleter(
      async () =>
        new (await import('../batch-providers/bedrock-batch-completer.js')).BedrockBatchCompleter({
          ...settings,
          ...onlineFor,
          modelId: settings.model,
        }),
    );
  }
  return new LazyCompleter(
    async () => new (await import('../batch-providers/chat-batch-completer.js')).ChatBatchCompleter({ ...settings, ...onlineFor }),
  );
}

/** The configured deployment serves the run's model; a judge's own model goes to the deployment of that name. */
function deploymentFor(configured: string, model: string, defaultModel: string): string {
  return model === defaultModel ? configured : model;
}

/** The openai SDK's client (OpenAI-compatible servers and Azure OpenAI), loaded with the SDK on its first judgment. */
function openAiClient(settings: JudgeClientSettings): JudgeCompleter {
  return new LazyCompleter(async () => new (await import('../judge-client/judge-client.js')).JudgeClient(settings));
}

/** A client built on its first judgment; concurrent first judgments share the one load. */
class LazyCompleter implements JudgeCompleter {
  private loading: Promise<JudgeCompleter> | undefined;

  constructor(private readonly load: () => Promise<JudgeCompleter>) {}

  async complete(request: CompletionRequest, limits?: CallDeadlineOptions): Promise<JudgeCompletion> {
    this.loading ??= this.load();
    return (await this.loading).complete(request, limits);
  }

  prepare(): void {
    this.loading ??= this.load();
    // A load that fails is the first judgment's failure, when that judgment awaits it; until then it is no unhandled rejection.
    this.loading.catch(() => {});
  }
}
