/** An error a task threw on its thread: what of it crosses back, to be thrown again here. */
export interface ThrownOnThread {
  readonly message: string;
  readonly stack?: string;
  /** The file system's code (ENOSPC: the store's disk is full), which says what the run does next (full-disk.ts). */
  readonly code?: string;
  /** The file or folder the file system's error names. */
  readonly path?: string;
}

/** What of an error crosses back from a thread. */
export function thrownOnThread(error: unknown): ThrownOnThread {
  const thrown = error instanceof Error ? error : new Error(String(error));
  const { code, path } = thrown as { code?: unknown; path?: unknown };
  return {
    message: thrown.message,
    ...(thrown.stack === undefined ? {} : { stack: thrown.stack }),
    ...(typeof code === 'string' ? { code } : {}),
    ...(typeof path === 'string' ? { path } : {}),
  };
}

/** The error a thread threw, thrown again on this side. */
export function rethrown(thrown: ThrownOnThread): Error {
  const { stack, code, path } = thrown;
  return Object.assign(
    new Error(thrown.message),
    stack === undefined ? {} : { stack },
    code === undefined ? {} : { code },
    path === undefined ? {} : { path },
  );
}
