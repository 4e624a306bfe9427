import pLimit from 'p-limit';
import { parseAnswer } from './answer-parsing.js';
import { cacheKey, type JudgeCache } from './judge-cache.js';
import { jsonSchemaOf, type ChatMessage, type JudgeClient } from './judge-client.js';
import type { LlmJudge, Verdict } from './judge-definition.js';
import { renderTemplate, type TemplateInput } from './template.js';

/** Per judge: what judging cost. Reported in every run's report. */
export interface JudgeUsage {
  calls: number;
  cache_hits: number;
  retries: number;
  errors: number;
  input_tokens: number;
  output_tokens: number;
}

/** What one judgment cost, so a caller can total it per case. */
export interface JudgmentCost {
  readonly cached: boolean;
  readonly retries: number;
  readonly inputTokens: number;
  readonly outputTokens: number;
}

export type JudgeOutcome =
  | { ok: true; verdict: Verdict; cached: boolean; cost: JudgmentCost }
  | { ok: false; error: string; transient: boolean; cost: JudgmentCost };

export interface JudgeServiceSettings {
  /** Host of the judge server, part of the cache key (never the key or the full URL). */
  readonly serverHost: string;
  readonly model: string;
  readonly temperature: number;
  /** Judge calls in flight at once: the rate pressure put on the judge server. */
  readonly concurrency: number;
}

/**
 * Runs LLM judges: renders the prompt, asks the cache or the judge client,
 * turns the answer into a verdict, and counts calls, cache hits, retries,
 * errors and tokens per judge. Concurrency bounds only real calls: cache hits
 * do not wait for a slot.
 */
export class JudgeService {
  private readonly limit: ReturnType<typeof pLimit>;
  private readonly usageByJudge = new Map<string, JudgeUsage>();

  constructor(
    private readonly client: JudgeClient,
    private readonly cache: JudgeCache,
    private readonly settings: JudgeServiceSettings,
  ) {
    if (!Number.isInteger(settings.concurrency) || settings.concurrency < 1) {
      throw new RangeError(`Expected concurrency to be an integer from 1 and up, got ${settings.concurrency}`);
    }
    this.limit = pLimit(settings.concurrency);
  }

  async judge(judge: LlmJudge<any>, inputs: Partial<Record<TemplateInput, string>>): Promise<JudgeOutcome> {
    const messages: ChatMessage[] = [
      { role: 'system', content: renderTemplate(judge.systemTemplate, inputs) },
      { role: 'user', content: renderTemplate(judge.userTemplate, inputs) },
    ];
    const schema = jsonSchemaOf(judge.output);
    const key = cacheKey({
      serverHost: this.settings.serverHost,
      model: this.settings.model,
      judgeId: judge.id,
      judgeVersion: judge.version,
      messages,
      temperature: this.settings.temperature,
      outputSchema: schema,
    });
    const usage = this.usageOf(judge.id);
    const { completion, cached } = await this.cache.getOrCompute(key, { judge: `${judge.id}@${judge.version}`, model: this.settings.model }, () =>
      this.limit(() => this.client.complete({ messages, schema: judge.output, schemaName: judge.id })),
    );
    if (cached) usage.cache_hits++;
    else {
      usage.calls++;
      usage.retries += completion.retries;
      usage.input_tokens += completion.usage.inputTokens;
      usage.output_tokens += completion.usage.outputTokens;
    }
    const cost: JudgmentCost = cached
      ? { cached, retries: 0, inputTokens: 0, outputTokens: 0 }
      : { cached, retries: completion.retries, inputTokens: completion.usage.inputTokens, outputTokens: completion.usage.outputTokens };
    if (!completion.ok) {
      usage.errors++;
      return { ok: false, error: completion.error, transient: completion.transient, cost };
    }
    const output = parseAnswer(completion.output, judge.output);
    if (!output.ok) {
      usage.errors++;
      return { ok: false, error: `cached answer no longer matches the judge's schema: ${output.error}`, transient: false, cost };
    }
    return { ok: true, verdict: judge.verdict(output.value), cached, cost };
  }

  /** Usage per judge id, for the report. */
  usage(): Record<string, JudgeUsage> {
    return Object.fromEntries(this.usageByJudge);
  }

  private usageOf(judgeId: string): JudgeUsage {
    let usage = this.usageByJudge.get(judgeId);
    if (usage === undefined) {
      usage = { calls: 0, cache_hits: 0, retries: 0, errors: 0, input_tokens: 0, output_tokens: 0 };
      this.usageByJudge.set(judgeId, usage);
    }
    return usage;
  }
}
