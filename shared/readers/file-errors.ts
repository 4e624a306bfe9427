import type { InputError } from '../schema/input-error.js';

/**
 * A file that cannot be opened or read (missing, a directory, no permission) is
 * a problem the user fixes, not a bug: it becomes an InputError for the file as
 * a whole. Anything else is left to throw.
 */
export function fileErrorFrom(file: string, error: unknown): InputError | undefined {
  // System errors carry an errno code (ENOENT, EISDIR, EACCES); parser errors have codes of their own.
  if (!(error instanceof Error) || !('code' in error) || typeof error.code !== 'string' || !/^E[A-Z]+$/.test(error.code)) return undefined;
  return { file, line: 0, message: `cannot read the file: ${error.message}`, fix: 'check the path and that the file is readable' };
}
