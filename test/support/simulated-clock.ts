import TinyQueue from 'tinyqueue';
import type { Clock } from '../../shared/ports/clock.js';

interface Timer {
  readonly at: number;
  /** Sleeps that end at the same time end in the order they began. */
  readonly order: number;
  readonly fire: () => void;
  cancelled: boolean;
}

/** Wall milliseconds the clock leaves the process between two jumps: time for the I/O in flight to come back. */
const QUIET_MS = 2;

/**
 * Simulated time for what runs in this process (an embedded run's queues, its
 * drive and heartbeats, a test server's slow answers): a sleep spends no wall
 * time. A moment after the last jump (QUIET_MS of the wall), the clock jumps
 * to the end of the earliest sleep and ends it, then the next, so sleeps end
 * in the order their times say, as on the wall. Work that is not a sleep on
 * this clock (a request on loopback, a file written) takes the wall time it
 * takes, during which the simulated time may run ahead: where that matters,
 * it is what a slow machine does too (a heartbeat, itself a sleep here, keeps
 * a message hidden while its handler runs however long that takes).
 */
export class SimulatedClock implements Clock {
  private time: number;
  private order = 0;
  private readonly timers = new TinyQueue<Timer>([], (left, right) => left.at - right.at || left.order - right.order);
  private jump: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(start: number = Date.now()) {
    this.time = start;
  }

  now(): number {
    return this.time;
  }

  sleep(milliseconds: number, signal?: AbortSignal): Promise<void> {
    return new Promise<void>((resolve) => {
      if (signal?.aborted === true) return resolve();
      const end = (): void => {
        timer.cancelled = true;
        signal?.removeEventListener('abort', end);
        resolve();
      };
      const timer: Timer = { at: this.time + Math.max(0, milliseconds), order: this.order++, fire: end, cancelled: false };
      signal?.addEventListener('abort', end, { once: true });
      this.timers.push(timer);
      this.scheduleJump();
    });
  }

  /** Ends the simulation: no sleep ends any more (a loop still sleeping on this clock waits for ever, and costs nothing). */
  stop(): void {
    this.stopped = true;
    clearTimeout(this.jump);
    this.jump = undefined;
  }

  private scheduleJump(): void {
    if (this.jump !== undefined || this.stopped) return;
    // Unreferenced: a sleep nobody ends keeps no process alive.
    this.jump = setTimeout(() => this.jumpToNext(), QUIET_MS).unref();
  }

  private jumpToNext(): void {
    this.jump = undefined;
    while (this.timers.peek()?.cancelled === true) this.timers.pop();
    const next = this.timers.peek();
    if (next === undefined) return;
    this.time = Math.max(this.time, next.at);
    // Every sleep that ends at this moment ends now, in the order they began.
    for (let due = this.timers.peek(); due !== undefined && due.at <= this.time; due = this.timers.peek()) {
      this.timers.pop();
      if (!due.cancelled) due.fire();
    }
    this.scheduleJump();
  }
}
