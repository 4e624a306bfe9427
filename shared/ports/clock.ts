/**
 * Time as a driver and its queues' consumers see it: the wall's by default,
 * a simulated one in a test, so a run that waits out a visibility timeout or
 * a poll interval need not spend the wait. `sleep` ends early, and resolves,
 * when `signal` is aborted.
 */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  sleep(milliseconds: number, signal?: AbortSignal): Promise<void>;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (milliseconds, signal) =>
    new Promise<void>((resolve) => {
      if (signal?.aborted === true) return resolve();
      const done = (): void => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, Math.max(0, milliseconds));
      signal?.addEventListener('abort', done, { once: true });
    }),
};
