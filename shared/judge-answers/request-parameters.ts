/**
 * The sampling parameters a judge client sends, and which of them the model
 * has refused. Reasoning models accept only their default temperature and
 * want `max_completion_tokens` instead of `max_tokens`; the client learns that
 * from the first refusal and sends every later request without it, in the
 * same output mode.
 */
export type SamplingParameter = 'temperature' | 'max_tokens' | 'max_completion_tokens';

export class RequestParameters {
  private sendTemperature = true;
  private tokenLimit: 'max_tokens' | 'max_completion_tokens' | undefined = 'max_tokens';

  constructor(
    private readonly temperature: number,
    private readonly maxTokens: number,
  ) {}

  /** The parameters for the next request. */
  current(): { temperature?: number; max_tokens?: number; max_completion_tokens?: number } {
    return {
      ...(this.sendTemperature ? { temperature: this.temperature } : {}),
      ...(this.tokenLimit === undefined ? {} : { [this.tokenLimit]: this.maxTokens }),
    };
  }

  /**
   * Stops sending a parameter the model refused (max_tokens becomes
   * max_completion_tokens; that one, refused too, is dropped). False when it
   * is no longer sent: the refusal is then final.
   */
  drop(parameter: SamplingParameter): boolean {
    if (parameter === 'temperature') {
      const wasSent = this.sendTemperature;
      this.sendTemperature = false;
      return wasSent;
    }
    if (this.tokenLimit !== parameter) return false;
    this.tokenLimit = parameter === 'max_tokens' ? 'max_completion_tokens' : undefined;
    return true;
  }
}
