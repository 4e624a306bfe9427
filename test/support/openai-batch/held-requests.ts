/**
 * Requests held unanswered until a test lets them go, so it can kill a
 * client at a known point (after its file upload, before its batch exists).
 * A held request either goes on, when released, or is dropped unanswered
 * and undone, when the server closes.
 */
export class HeldRequests {
  private waiting: ((released: boolean) => void)[] = [];

  /** How many requests are held now. */
  get count(): number {
    return this.waiting.length;
  }

  /** Resolves true when released, false when dropped. */
  hold(): Promise<boolean> {
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  release(): void {
    for (const resolve of this.waiting.splice(0)) resolve(true);
  }

  drop(): void {
    for (const resolve of this.waiting.splice(0)) resolve(false);
  }
}
