/**
 * The file system's answers that mean no write will succeed there until
 * someone acts: a full disk, a used-up quota, a file system mounted
 * read-only. Unlike a network fault they do not pass on a later try, so a
 * run that meets one stops at once, keeps what it stored, and says what to
 * do, instead of sending its cases again (and paying for their judgments
 * again) until each is dead-lettered.
 */
const FULL_DISK_REASONS: Readonly<Record<string, string>> = {
  ENOSPC: 'no space is left on its device',
  EDQUOT: 'the disk quota there is used up',
  EROFS: 'its file system is mounted read-only',
};

/** A full disk (or quota, or read-only file system) met in an error or in one of its causes. */
export interface FullDisk {
  /** The error's code: ENOSPC, EDQUOT or EROFS. */
  readonly code: string;
  /** What it means for the place written, as a sentence's end: "no space is left on its device". */
  readonly reason: string;
  /** The message of the error that carried the code (the outermost, which says most). */
  readonly message: string;
  /**
   * Whether the message names the file or the store written: a write to an
   * open file or stream (a scratch file) fails with `ENOSPC: ..., write`,
   * which names neither, and the reader must be told where to look.
   */
  readonly named: boolean;
}

/** The full disk an error says it met (it, or an error it was caused by, has such a code), or undefined. */
export function fullDiskOf(error: unknown): FullDisk | undefined {
  const outer = error instanceof Error ? error.message : String(error);
  let named = false;
  for (let current: unknown = error, depth = 0; typeof current === 'object' && current !== null && depth < 8; depth++) {
    named ||= typeof (current as { path?: unknown }).path === 'string';
    const code = (current as { code?: unknown }).code;
    const reason = typeof code === 'string' ? FULL_DISK_REASONS[code] : undefined;
    if (typeof code === 'string' && reason !== undefined) {
      return { code, reason, message: outer, named };
    }
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/**
 * A store in a local folder that refused a write for want of space (or
 * quota, or because it is read-only). Its message names the store and the
 * object; `code` is the file system's, so fullDiskOf finds it, also on an
 * error rebuilt from it on another thread (which keeps `code` and `path`).
 */
export class StoreUnwritableError extends Error {
  readonly code: string;
  /** The store's folder, which its message names (as node:fs names the file of an error). */
  readonly path: string;

  constructor(root: string, key: string, cause: NodeJS.ErrnoException & { code: string }, reason: string) {
    super(`the store ${root} could not write ${key}: ${reason} (${cause.code})`, { cause });
    this.name = 'StoreUnwritableError';
    this.code = cause.code;
    this.path = root;
  }
}

/** The error a local store throws for a failed write: a StoreUnwritableError for a full disk, else the error as it came. */
export function unwritableOr(root: string, key: string, error: unknown): unknown {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const reason = typeof code === 'string' ? FULL_DISK_REASONS[code] : undefined;
  if (typeof code !== 'string' || reason === undefined) return error;
  return new StoreUnwritableError(root, key, error as NodeJS.ErrnoException & { code: string }, reason);
}

/**
 * A full disk's message as a command ends with it: when it names no file (a
 * write to an open scratch file), where the run's scratch files go, so the
 * reader knows which disk to free.
 */
export function fullDiskText(full: FullDisk, temporaryFolder: string): string {
  return full.named ? full.message : `${full.message} (to a scratch file in the temp folder, ${temporaryFolder}; TMPDIR moves it)`;
}
