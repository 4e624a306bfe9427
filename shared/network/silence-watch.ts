/**
 * Whether a server that has never answered is silent: it accepts
 * connections (or drops their packets) and sends nothing back. One attempt
 * that got no answer in its time is not enough, since a server still
 * starting (a model loading, a cold container) may answer the next; an
 * attempt sent after that first silence, which got no answer either, is.
 * Once the server has answered, it is never taken for silent: a slow
 * answer then is a passing fault. The judge client (ServerReach) and the
 * engines each keep one a server.
 */
export class SilenceWatch {
  private heard = false;
  /** When the first attempt ended without an answer, while none has come. */
  private since: number | undefined;

  constructor(private readonly now: () => number = Date.now) {}

  /** The server answered (any answer, an error status too). */
  heardFrom(): void {
    this.heard = true;
    this.since = undefined;
  }

  /**
   * An attempt sent at `startedAt` got no answer in its time (or its
   * caller's deadline cut it). True when that makes the server silent: the
   * watch then starts again, for after the caller's hold.
   */
  noAnswer(startedAt: number): boolean {
    if (this.heard) return false;
    if (this.since === undefined || startedAt < this.since) {
      this.since ??= this.now();
      return false;
    }
    this.since = undefined;
    return true;
  }
}

/** How long calls to a server fail at once after it was found unreachable or silent. */
export const UNREACHABLE_HOLD_MS = 30_000;

/**
 * Why no call can reach a server now: a verdict held for `holdMs`, after
 * which the next call asks the server again (a gateway that was restarting
 * may be back).
 */
export class HeldVerdict {
  private reason: string | undefined;
  private since = 0;

  constructor(
    private readonly now: () => number = Date.now,
    private readonly holdMs = UNREACHABLE_HOLD_MS,
  ) {}

  get current(): string | undefined {
    if (this.reason !== undefined && this.now() - this.since >= this.holdMs) this.reason = undefined;
    return this.reason;
  }

  hold(reason: string): void {
    this.reason = reason;
    this.since = this.now();
  }

  /** The server answered: no verdict stands. */
  clear(): void {
    this.reason = undefined;
  }
}
