/** An error a task threw on its thread: what of it crosses back, to be thrown again here. */
export interface ThrownOnThread {
  readonly message: string;
  readonly stack?: string;
  /** The file system's code (ENOSPC: the store's disk is full), which says what the run does next (full-disk.ts). */
  readonly code?: string;
}

/** What of an error crosses back from a thread. */
export function thrownOnThread(error: unknown): ThrownOnThread {
  const thrown = error instanceof Error ? error : new Error(String(error));
  const code = (thrown as { code?: unknown }).code;
  return {
    message: thrown.message,
    ...(thrown.stack === undefined ? {} : { stack: thrown.stack }),
    ...(typeof code === 'string' ? { code } : {}),
  };
}

/** The error a thread threw, thrown again on this side. */
export function rethrown(thrown: ThrownOnThread): Error {
  const { stack, code } = thrown;
  return Object.assign(new Error(thrown.message), stack === undefined ? {} : { stack }, code === undefined ? {} : { code });
}
