import type { LlmJudge } from '../judges/judge-definition.js';
import type { ClientOverrides } from '../judge-client/judge-overrides.js';
import type { JudgeOutcome, JudgeRunner, JudgeService, JudgeUsage, JudgmentOptions } from './judge-service.js';
import type { TemplateInput } from '../judges/template.js';

const USAGE_COUNTS = ['calls', 'cache_hits', 'retries', 'errors', 'input_tokens', 'output_tokens'] as const satisfies readonly (keyof JudgeUsage)[];

/** Every client setting a judge can set for itself, resolved against the run's. */
export interface ResolvedClientSettings {
  /** Undefined means the OpenAI API. */
  readonly baseUrl: string | undefined;
  readonly model: string;
  readonly temperature: number;
  readonly maxTokens: number;
}

/**
 * The LLM backend of a run whose judges do not all share one client: one
 * judge service per distinct setting (server, model, temperature, answer
 * length), built on first use. A judge without settings of its own goes to
 * the run's default service.
 */
export class JudgeServicePool implements JudgeRunner {
  private readonly services = new Map<string, { settings: ResolvedClientSettings; service: JudgeService }>();

  constructor(
    private readonly defaults: ResolvedClientSettings,
    private readonly build: (settings: ResolvedClientSettings) => JudgeService,
  ) {}

  /** The settings a judge's overrides come to. */
  resolve(overrides: ClientOverrides | undefined): ResolvedClientSettings {
    return {
      baseUrl: overrides?.baseUrl ?? this.defaults.baseUrl,
      model: overrides?.model ?? this.defaults.model,
      temperature: overrides?.temperature ?? this.defaults.temperature,
      maxTokens: overrides?.maxTokens ?? this.defaults.maxTokens,
    };
  }

  serviceFor(overrides: ClientOverrides | undefined): JudgeService {
    const settings = this.resolve(overrides);
    const key = JSON.stringify([settings.baseUrl ?? null, settings.model, settings.temperature, settings.maxTokens]);
    let entry = this.services.get(key);
    if (entry === undefined) {
      entry = { settings, service: this.build(settings) };
      this.services.set(key, entry);
    }
    return entry.service;
  }

  judge(judge: LlmJudge<any>, inputs: Partial<Record<TemplateInput, string>>, options: JudgmentOptions = {}): Promise<JudgeOutcome> {
    return this.serviceFor(options.client ?? judge.client).judge(judge, inputs, options);
  }

  /** Usage per judge id over every service; a judge id that used two services (a decision tree's nodes do not) is summed. */
  usage(): Record<string, JudgeUsage> {
    const total: Record<string, JudgeUsage> = {};
    for (const { service } of this.services.values()) {
      for (const [id, usage] of Object.entries(service.usage())) {
        const sum = (total[id] ??= { calls: 0, cache_hits: 0, retries: 0, errors: 0, input_tokens: 0, output_tokens: 0 });
        for (const key of USAGE_COUNTS) sum[key] += usage[key];
        if (usage.rate_limited !== undefined) sum.rate_limited = (sum.rate_limited ?? 0) + usage.rate_limited;
      }
    }
    return total;
  }

  /** The settings in use so far, one per service. */
  settingsInUse(): ResolvedClientSettings[] {
    return [...this.services.values()].map((entry) => entry.settings);
  }
}
