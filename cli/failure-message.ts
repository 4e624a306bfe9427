import { tmpdir } from 'node:os';
import { AwsEndpointFault } from '../shared/ports/aws-endpoint-fault.js';
import { fullDiskOf, fullDiskText } from '../shared/ports/full-disk.js';
import { scrubSecrets } from '../shared/secrets/scrub-secrets.js';
import { terminalName, terminalText } from '../shared/report-render/terminal-text.js';
import { UsageError, UsageProblems } from './usage-error.js';

/** The evaluation failed or found nothing to evaluate, or an unexpected error stopped the command. */
export const EXIT_FAILED = 1;
/** A usage error: a bad option, argument, input file or environment variable. */
export const EXIT_USAGE = 2;

/**
 * What the CLI prints for an error that ended a command, and its exit code:
 * each of `lines` follows the command's name on stderr. A UsageError is
 * expected: its message, on one line, or one line per problem for
 * UsageProblems (a config with several bad fields); so is a full disk, said
 * with what to do. Anything else is a bug or an outage: one line with a
 * hint, or with `debug` the stack trace. All
 * go through scrubSecrets, the last place a key could leak to the terminal,
 * and show control characters (of file names, ids) escaped.
 */
export function failureMessage(error: unknown, options: { debug: boolean }): { lines: readonly string[]; exitCode: number } {
  const shown = (text: string) => terminalName(oneLine(scrubSecrets(text)));
  if (error instanceof UsageProblems) return { lines: error.problems.map(shown), exitCode: error.exitCode };
  if (error instanceof UsageError) return { lines: [shown(error.message)], exitCode: error.exitCode };
  // A full disk is no bug of assay's: what could not be written, and what to do (a run's command adds how to finish it: cli/run/full-disk-stop.ts).
  const full = fullDiskOf(error);
  if (full !== undefined && !options.debug) {
    return {
      lines: [shown(`${fullDiskText(full, tmpdir())}; free some space on that device and run the command again`)],
      exitCode: EXIT_FAILED,
    };
  }
  // An endpoint that answers nothing, or answers as no S3 does: what and what to do, not a bug of assay's.
  if (error instanceof AwsEndpointFault && !options.debug) return { lines: [shown(error.message)], exitCode: EXIT_FAILED };
  if (options.debug) {
    const stack = error instanceof Error ? (error.stack ?? error.message) : String(error);
    return { lines: [terminalText(scrubSecrets(stack))], exitCode: EXIT_FAILED };
  }
  const message = error instanceof Error ? error.message : String(error);
  return {
    lines: [`${shown(message) || 'unknown error'} (unexpected error; run again with --debug or ASSAY_DEBUG=1 to see its stack trace)`],
    exitCode: EXIT_FAILED,
  };
}

/** A message's lines joined into one, so that one failure (or one problem) is one line whatever text it quotes. */
function oneLine(text: string): string {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .join('; ');
}
