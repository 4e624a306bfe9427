import { Command, CommanderError } from 'commander';
import { rememberSecret } from '../shared/judges/scrub-secrets.js';
import { compareCommand } from './commands/compare.js';
import { irMetricsCommand } from './commands/ir-metrics.js';
import { judgesCommand } from './commands/judges.js';
import { baselineCommand } from './commands/baseline.js';
import { redriveCommand } from './commands/redrive.js';
import { reportCommand } from './commands/report.js';
import { runCommand } from './commands/run.js';
import { statusCommand } from './commands/status.js';
import { submitCommand } from './commands/submit.js';
import { validateCommand } from './commands/validate.js';
import { EXIT_USAGE, failureMessage } from './failure-message.js';

/** Builds the `assay` program. Each command lives in its own file under cli/commands/. */
export function buildProgram(): Command {
  const program = new Command('assay')
    .description('Evaluation pipeline for RAG and search systems')
    .version('0.1.0')
    .option('--debug', 'print the stack trace of an unexpected error (as ASSAY_DEBUG=1 does)')
    .exitOverride()
    .showHelpAfterError(false);
  program.addCommand(runCommand());
  program.addCommand(redriveCommand());
  program.addCommand(baselineCommand());
  program.addCommand(submitCommand());
  program.addCommand(statusCommand());
  program.addCommand(reportCommand());
  program.addCommand(irMetricsCommand());
  program.addCommand(validateCommand());
  program.addCommand(judgesCommand());
  program.addCommand(compareCommand());
  configureErrors(program);
  return program;
}

/**
 * addCommand does not pass settings down, so every command gets them here:
 * exitOverride (without it a subcommand's usage error would exit the
 * process) and commander's own errors on one line, named like ours.
 */
function configureErrors(command: Command): void {
  command.exitOverride();
  command.configureOutput({
    outputError: (text, write) => write(`${commandLabel(command)}: ${text.replace(/^error: /, '').trim().replace(/\s*\n\s*/g, ' ')}\n`),
  });
  for (const subcommand of command.commands) configureErrors(subcommand);
}

/** `assay run`, `assay baseline set`: the command as the user typed it. */
function commandLabel(command: Command): string {
  const names: string[] = [];
  for (let current: Command | null = command; current !== null; current = current.parent) names.unshift(current.name());
  return names.join(' ');
}

/**
 * Runs the CLI and returns the process exit code: 0 when it did its work, 1
 * when the evaluation failed or found nothing to evaluate (or an unexpected
 * error stopped it), 2 for a usage error. Every failure prints one line on
 * stderr; an unexpected error shows its stack trace only with --debug or
 * ASSAY_DEBUG=1.
 */
export async function main(argv: readonly string[]): Promise<number> {
  rememberSecret(process.env.OPENAI_API_KEY);
  const program = buildProgram();
  let label = 'assay';
  program.hook('preAction', (_program, actionCommand) => {
    label = commandLabel(actionCommand);
  });
  try {
    await program.parseAsync([...argv]);
    return typeof process.exitCode === 'number' ? process.exitCode : 0;
  } catch (error) {
    // Commander already printed its message (or the help / version text).
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : EXIT_USAGE;
    const debug = process.env.ASSAY_DEBUG === '1' || argv.includes('--debug');
    const failure = failureMessage(error, { debug });
    process.stderr.write(`${label}: ${failure.text}\n`);
    return failure.exitCode;
  }
}
