import { scrubSecrets } from '../shared/secrets/scrub-secrets.js';
import { terminalName, terminalText } from '../shared/report-render/terminal-text.js';
import { UsageError } from './usage-error.js';

/** The evaluation failed or found nothing to evaluate, or an unexpected error stopped the command. */
export const EXIT_FAILED = 1;
/** A usage error: a bad option, argument, input file or environment variable. */
export const EXIT_USAGE = 2;

/**
 * What the CLI prints for an error that ended a command, and its exit code.
 * A UsageError is expected: its message, on one line. Anything else is a bug
 * or an outage: one line with a hint, or with `debug` the stack trace. Both
 * go through scrubSecrets, the last place a key could leak to the terminal,
 * and show control characters (of file names, ids) escaped.
 */
export function failureMessage(error: unknown, options: { debug: boolean }): { text: string; exitCode: number } {
  if (error instanceof UsageError) return { text: terminalName(oneLine(scrubSecrets(error.message))), exitCode: error.exitCode };
  if (options.debug) {
    const stack = error instanceof Error ? (error.stack ?? error.message) : String(error);
    return { text: terminalText(scrubSecrets(stack)), exitCode: EXIT_FAILED };
  }
  const message = error instanceof Error ? error.message : String(error);
  return {
    text: `${terminalName(oneLine(scrubSecrets(message))) || 'unknown error'} (unexpected error; run again with --debug or ASSAY_DEBUG=1 to see its stack trace)`,
    exitCode: EXIT_FAILED,
  };
}

/** Several lines (a config with several bad fields) joined into one, so every failure is one line. */
function oneLine(text: string): string {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .join('; ');
}
