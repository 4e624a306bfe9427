import pLimit from 'p-limit';
import { parseAnswer } from '../judge-answers/answer-parsing.js';
import { cacheKey, type JudgeCache } from '../judge-client/judge-cache.js';
import type { BatchRequest } from '../schema/batch-request.js';
import type { JudgeCompleter, JudgeCompletion } from '../judge-answers/judge-completion.js';
import type { AnswerIdentity } from '../schema/run-records.js';
import type { JudgeProviderName } from '../judge-client/judge-provider-config.js';
import { jsonSchemaOf, type ChatMessage } from '../judge-answers/output-modes.js';
import type { LlmJudge, Verdict } from '../judges/judge-definition.js';
import { schemaNameOf, type ClientOverrides } from '../judge-client/judge-overrides.js';
import { renderTemplate, type TemplateInput } from '../judges/template.js';
import { addUsage, emptyUsage, judgmentUsage, type JudgeUsage, type JudgmentCost } from './judge-usage-tally.js';

/** A judgment with its cost: a JudgeCompletion read as a verdict, and not a Result for the same reasons. */
export type JudgeOutcome =
  | { ok: true; verdict: Verdict; cached: boolean; cost: JudgmentCost }
  | {
      ok: false;
      error: string;
      transient: boolean;
      /** The deadline came while the server's rate limit held the judgment. */
      heldByRateLimit?: true;
      /** The judgment waits for this request's answer from a batch job: no failure, and nothing spent yet. */
      awaitingBatch?: BatchRequest;
      cost: JudgmentCost;
    };

export interface JudgeServiceSettings {
  /** Where the judge runs: part of the cache key, so an Azure deployment and an OpenAI model of one name never share entries. */
  readonly provider: JudgeProviderName;
  /** The judge server as serverOf gives it (base URL, Azure deployment, Bedrock endpoint), part of the cache key (never the key, user info or query). */
  readonly baseUrl: string;
  readonly model: string;
  readonly temperature: number;
  /** Cache answers sampled at temperature > 0 (per sample number); otherwise they are not cached, so each sample is drawn anew. */
  readonly cacheSampled: boolean;
  /** Judge calls in flight at once: the rate pressure put on the judge server. */
  readonly concurrency: number;
}

export interface JudgmentOptions {
  /** When the judgment must be over: an AbortSignal, or an epoch time in milliseconds (a worker's remaining time minus a margin). */
  readonly deadline?: AbortSignal | number | undefined;
  /** Which sample of this judgment, for repeated judging at temperature > 0; part of the cache key. Default 0. */
  readonly sample?: number | undefined;
  /** The judge's own client settings; a JudgeServicePool routes by them, a single service has only its own. */
  readonly client?: ClientOverrides | undefined;
  /** The run the judgment is for: a batch judgment finds its answers under it (batch-providers/). */
  readonly runId?: string | undefined;
  /** A batch judgment made online where no job answered (its round was below the provider's minimum a job). */
  readonly batchOnline?: true | undefined;
  /** The run's cost ceiling was reached: no batch judgment falls back to an online call. */
  readonly batchOnlineRefused?: true | undefined;
  /** Judged afresh: the cache is neither read nor written, and no identical call in flight answers it (a canary's judgment, shared/canaries/). */
  readonly uncached?: true | undefined;
}

/** What the runner needs of an LLM backend: one service, or a pool of them (one per distinct client setting). */
export interface JudgeRunner {
  judge(judge: LlmJudge, inputs: Partial<Record<TemplateInput, string>>, options?: JudgmentOptions): Promise<JudgeOutcome>;
  usage(): Record<string, JudgeUsage>;
  /** Starts loading what the first judgment needs (its client's code): called where a run is about to judge. */
  prepare?(): void;
}

/**
 * Runs LLM judges: renders the prompt, asks the cache or the judge client,
 * turns the answer into a verdict, and counts calls, cache hits, judgments
 * shared with an identical call in flight, retries, errors and tokens per
 * judge. Concurrency bounds only real calls: cache hits do not wait for a slot.
 */
export class JudgeService implements JudgeRunner {
  private readonly limit: ReturnType<typeof pLimit>;
  private readonly usageByJudge = new Map<string, JudgeUsage>();

  /** `limit` is shared by the services of one pool, so their calls together stay within one concurrency. */
  constructor(
    private readonly client: JudgeCompleter,
    private readonly cache: JudgeCache,
    private readonly settings: JudgeServiceSettings,
    limit?: ReturnType<typeof pLimit>,
  ) {
    if (!Number.isInteger(settings.concurrency) || settings.concurrency < 1) {
      throw new RangeError(`Expected concurrency to be an integer from 1 and up, got ${settings.concurrency}`);
    }
    this.limit = limit ?? pLimit(settings.concurrency);
  }

  async judge(judge: LlmJudge, inputs: Partial<Record<TemplateInput, string>>, options: JudgmentOptions = {}): Promise<JudgeOutcome> {
    const messages: ChatMessage[] = [
      { role: 'system', content: renderTemplate(judge.systemTemplate, inputs) },
      { role: 'user', content: renderTemplate(judge.userTemplate, inputs) },
    ];
    const schema = jsonSchemaOf(judge.output);
    const sample = this.settings.temperature > 0 ? (options.sample ?? 0) : 0;
    const key = cacheKey({
      provider: this.settings.provider,
      baseUrl: this.settings.baseUrl,
      model: this.settings.model,
      // A model variant runs its judge's prompt: its cache entries are that judge's, told apart by the model.
      judgeId: judge.promptId ?? judge.id,
      judgeVersion: judge.version,
      messages,
      temperature: this.settings.temperature,
      outputSchema: schema,
      sample,
    });
    const limits = typeof options.deadline === 'number' ? { deadlineAt: options.deadline } : { signal: options.deadline };
    const batch =
      options.runId === undefined
        ? {}
        : {
            batch: {
              runId: options.runId,
              judge: judge.id,
              sample,
              ...(options.batchOnline === true ? { online: true as const } : {}),
              ...(options.batchOnlineRefused === true ? { onlineRefused: true as const } : {}),
            },
          };
    const compute = () =>
      this.limit(() =>
        this.client.complete({ messages, schema: judge.output, schemaName: schemaNameOf(judge.promptId ?? judge.id), ...batch }, limits),
      );
    // A sampled answer read back from the cache would freeze one draw for every later run.
    const sampled = this.settings.temperature > 0 && !this.settings.cacheSampled;
    const { completion, cached, shared } =
      sampled || options.uncached === true
        ? { completion: await compute(), cached: false, shared: false }
        : await this.cache.getOrCompute(key, { judge: `${judge.id}@${judge.version}`, model: this.settings.model }, compute);
    const model = this.settings.model;
    if (!completion.ok && completion.awaitingBatch !== undefined) {
      // Nothing was answered or spent yet: the case is judged again once a batch job has answered.
      const free: JudgmentCost = { cached: false, retries: 0, rateLimited: 0, inputTokens: 0, outputTokens: 0, model };
      return { ok: false, error: completion.error, transient: true, awaitingBatch: completion.awaitingBatch, cost: free };
    }
    const pricing = !cached && completion.pricing !== undefined ? { pricing: completion.pricing } : {};
    const cost: JudgmentCost = cached
      ? { cached, ...(shared ? { shared } : {}), retries: 0, rateLimited: 0, inputTokens: 0, outputTokens: 0, model }
      : {
          cached,
          retries: completion.retries,
          rateLimited: completion.rateLimited,
          inputTokens: completion.usage.inputTokens,
          outputTokens: completion.usage.outputTokens,
          model,
          ...pricing,
          ...(completion.ok ? { answeredBy: identityOf(completion, model) } : {}),
        };
    if (!completion.ok) {
      this.count(judge.id, judgmentUsage(cost, true));
      const held = completion.heldByRateLimit === true ? { heldByRateLimit: true as const } : {};
      return { ok: false, error: completion.error, transient: completion.transient, ...held, cost };
    }
    // A fresh answer was checked against the judge's schema by the client (answer-exchange.ts); one read back from the
    // cache (or shared with a call in flight) is checked here, since the judge's schema may have changed since it was stored.
    const output = cached ? parseAnswer(completion.output, judge.output) : { ok: true as const, value: completion.output };
    this.count(judge.id, judgmentUsage(cost, !output.ok));
    if (!output.ok)
      return { ok: false, error: `cached answer no longer matches the judge's schema: ${output.error}`, transient: false, cost };
    return { ok: true, verdict: judge.verdict(output.value), cached, cost };
  }

  /** Usage per judge id, for the report. */
  usage(): Record<string, JudgeUsage> {
    return Object.fromEntries(this.usageByJudge);
  }

  prepare(): void {
    this.client.prepare?.();
  }

  private count(judgeId: string, judgment: JudgeUsage): void {
    this.usageByJudge.set(judgeId, addUsage(this.usageByJudge.get(judgeId) ?? emptyUsage(), judgment));
  }
}

/**
 * Who answered a call, as the provider named it: the model it reported, else
 * the model asked (Bedrock's Converse names none), and OpenAI's
 * system_fingerprint when it sent one.
 */
function identityOf(completion: Extract<JudgeCompletion, { ok: true }>, asked: string): AnswerIdentity {
  const model = completion.reportedModel ?? asked;
  return completion.systemFingerprint === undefined ? { model } : { model, system_fingerprint: completion.systemFingerprint };
}
