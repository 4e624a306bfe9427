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

/**
 * A usage error made of several problems, such as a config file with several
 * bad fields. Each is printed on a line of its own, in the form of every
 * failure (`assay <command>: <problem>`), so that each can be read, searched
 * for and fixed on its own; any other failure is one line.
 */
export class UsageProblems extends UsageError {
  constructor(
    readonly problems: readonly string[],
    exitCode = 2,
  ) {
    super(problems.join('\n'), exitCode);
  }
}

/** A config error as shared/config gives it, one problem a line: each printed on its own line. */
export function configProblems(text: string): UsageProblems {
  return new UsageProblems(text.split('\n').filter((line) => line.trim() !== ''));
}
