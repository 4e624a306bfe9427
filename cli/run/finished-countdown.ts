/**
 * When a local drive should next read its run's progress from the store,
 * counted without keeping any case id: a million-case run holds two numbers,
 * not a million ids. The first check is due once as many cases have ended in
 * this process as the drive expects; a check that finds cases still
 * unfinished makes the next one due once that many more have ended.
 *
 * A case that ends twice (a message delivered again, which at-least-once
 * queues allow) counts twice, so a check may come early; it then finds the
 * cases still unfinished and waits for them, so counting never makes the
 * drive miss or double-count a case: the store's records decide.
 */
export class FinishedCountdown {
  private ended = 0;
  private due: number;

  constructor(expectedCases: number) {
    this.due = expectedCases;
  }

  /** One case of the run ended (a result or a recorded failure). */
  caseEnded(): void {
    this.ended += 1;
  }

  /** Whether enough cases have ended since the last check for the next to be worth making. */
  get checkDue(): boolean {
    return this.ended >= this.due;
  }

  /** A check found `unfinished` cases of the run still without a result or a failure. */
  checked(unfinished: number): void {
    this.due = this.ended + unfinished;
  }
}
