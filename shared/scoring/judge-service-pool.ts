import type { LlmJudge } from '../judges/judge-definition.js';
import type { ClientOverrides } from '../judge-client/judge-overrides.js';
import type { JudgeOutcome, JudgeRunner, JudgeService, JudgmentOptions } from './judge-service.js';
import type { TemplateInput } from '../judges/template.js';
import { addUsagesByJudge, type JudgeUsage } from './judge-usage-tally.js';

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

  judge(judge: LlmJudge, inputs: Partial<Record<TemplateInput, string>>, options: JudgmentOptions = {}): Promise<JudgeOutcome> {
    return this.serviceFor(options.client ?? judge.client).judge(judge, inputs, options);
  }

  /** The service of the run's own settings starts loading its client: the judges without settings of their own use it. */
  prepare(): void {
    this.serviceFor(undefined).prepare();
  }

  /** Usage per judge id over every service; a judge id that used two services (a decision tree's nodes do not) is summed. */
  usage(): Record<string, JudgeUsage> {
    return addUsagesByJudge([...this.services.values()].map(({ service }) => service.usage()));
  }

  /** The settings in use so far, one per service. */
  settingsInUse(): ResolvedClientSettings[] {
    return [...this.services.values()].map((entry) => entry.settings);
  }
}
