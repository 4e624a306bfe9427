import type { GovernorClock } from '../../shared/judge-rate/rate-governor.js';

/** A clock that moves only when a test moves it, firing the timers that fall due on the way, in time order. */
export class ManualClock implements GovernorClock {
  private time = 0;
  private readonly timers: { at: number; fire: () => void; cancelled: boolean }[] = [];

  now(): number {
    return this.time;
  }

  after(milliseconds: number, fire: () => void): () => void {
    const timer = { at: this.time + Math.max(0, milliseconds), fire, cancelled: false };
    this.timers.push(timer);
    return () => {
      timer.cancelled = true;
    };
  }

  /** Moves the time on by `milliseconds`, letting the promises settled by each timer run before the next. */
  async advance(milliseconds: number): Promise<void> {
    const until = this.time + milliseconds;
    for (;;) {
      await settle();
      const due = this.timers.filter((timer) => !timer.cancelled && timer.at <= until).sort((left, right) => left.at - right.at)[0];
      if (due === undefined) break;
      this.timers.splice(this.timers.indexOf(due), 1);
      this.time = Math.max(this.time, due.at);
      due.fire();
    }
    this.time = until;
    await settle();
  }
}

/** Lets every pending promise callback run. */
export async function settle(): Promise<void> {
  for (let turn = 0; turn < 10; turn++) await Promise.resolve();
}
