/**
 * An expected failure the user can fix: a bad option, an unreadable or malformed
 * input file. The CLI prints its message without a stack trace and exits with
 * `exitCode` (2 by default, as for usage errors in most Unix tools).
 */
export class UsageError extends Error {
  override readonly name = 'UsageError';
  constructor(
    message: string,
    readonly exitCode = 2,
  ) {
    super(message);
  }
}
