export interface RefreshingSecretOptions {
  /** Names the secret in error messages: its ARN or name, never its value. */
  readonly name: string;
  /** Reads the current value from the secret store; undefined when the secret holds none. May throw. */
  readonly fetch: () => Promise<string | undefined>;
  /** How long a value is used before it is read again, so a rotated secret is picked up. */
  readonly maxAgeMs: number;
  /** Milliseconds since the epoch; tests pass a clock of their own. */
  readonly now?: () => number;
}

/** What stands in for a secret's value in an error message. */
export const REDACTED = '[redacted]';

/**
 * A secret read from a secret store (the judge key, in Secrets Manager), kept
 * for a bounded time. A long-lived process (a warm Lambda container) thus
 * picks up a rotated value within `maxAgeMs`, and a failed read is never
 * kept: the next caller reads again. Callers that arrive while a read is in
 * flight share it, so a batch of cases makes one request. The value never
 * appears in an error this throws.
 */
export class RefreshingSecret {
  private readonly now: () => number;
  private current: { readonly value: string | undefined; readonly readAt: number } | undefined;
  private reading: Promise<string | undefined> | undefined;
  /** Every value seen, to keep them out of error messages even after a rotation. */
  private readonly seen = new Set<string>();

  constructor(private readonly options: RefreshingSecretOptions) {
    if (!Number.isFinite(options.maxAgeMs) || options.maxAgeMs < 0) {
      throw new Error(`Expected maxAgeMs to be a number of milliseconds from 0 up, got ${options.maxAgeMs}`);
    }
    // Looked up on each call, so a clock replaced after construction (fake timers) is the one used.
    this.now = options.now ?? (() => Date.now());
  }

  /** The value, read again when the one held is older than maxAgeMs. */
  async read(): Promise<string | undefined> {
    const current = this.current;
    if (current !== undefined && this.now() - current.readAt < this.options.maxAgeMs) return current.value;
    this.reading ??= this.fetch().finally(() => {
      this.reading = undefined;
    });
    return this.reading;
  }

  private async fetch(): Promise<string | undefined> {
    let value: string | undefined;
    try {
      value = await this.options.fetch();
    } catch (error) {
      // No cause attached: a logger that prints causes would print the original message.
      throw new Error(`Could not read ${this.options.name}: ${this.redact(error instanceof Error ? error.message : String(error))}`);
    }
    if (value !== undefined && value !== '') this.seen.add(value);
    this.current = { value, readAt: this.now() };
    return value;
  }

  private redact(message: string): string {
    let redacted = message;
    for (const value of this.seen) redacted = redacted.replaceAll(value, REDACTED);
    return redacted;
  }
}
