import type { InputError } from '../schema/input-error.js';
import { FileEncodingError } from './file-encoding.js';

/**
 * A file that cannot be opened or read (missing, a directory, no permission),
 * or is not UTF-8 text (UTF-16, compressed: file-encoding.ts), is a problem
 * the user fixes, not a bug: it becomes an InputError for the file as a
 * whole. Anything else is left to throw.
 */
export function fileErrorFrom(file: string, error: unknown): InputError | undefined {
  if (error instanceof FileEncodingError) return encodingError(file, error);
  // System errors carry an errno code (ENOENT, EISDIR, EACCES); parser errors have codes of their own.
  if (!(error instanceof Error) || !('code' in error) || typeof error.code !== 'string' || !/^E[A-Z]+$/.test(error.code)) return undefined;
  return { file, line: 0, message: `cannot read the file: ${error.message}`, fix: 'check the path and that the file is readable' };
}

/** The input error of a file that is not UTF-8 text (UTF-16, compressed), for the file as a whole. */
export function encodingError(file: string, error: FileEncodingError): InputError {
  return { file, line: 0, message: error.message, fix: error.fix };
}
