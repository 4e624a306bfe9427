import { Command, CommanderError } from 'commander';
import { compareCommand } from './commands/compare.js';
import { enginesCommand } from './commands/engines.js';
import { irMetricsCommand } from './commands/ir-metrics.js';
import { judgesCommand } from './commands/judges.js';
import { baselineCommand } from './commands/baseline.js';
import { redriveCommand } from './commands/redrive.js';
import { reportCommand } from './commands/report.js';
import { runCommand } from './commands/run.js';
import { statusCommand } from './commands/status.js';
import { submitCommand } from './commands/submit.js';
import { validateCommand } from './commands/validate.js';
import { UsageError } from './usage-error.js';

/** Builds the `assay` program. Each command lives in its own file under cli/commands/. */
export function buildProgram(): Command {
  const program = new Command('assay')
    .description('Evaluation pipeline for RAG and search systems')
    .version('0.1.0')
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
  program.addCommand(enginesCommand());
  // addCommand does not pass settings down: without this a subcommand's usage error would exit the process.
  for (const command of program.commands) command.exitOverride();
  return program;
}

/**
 * Runs the CLI and returns the process exit code. Expected failures (bad input,
 * bad options) print one clear message on stderr; anything else is a bug and
 * keeps its stack trace.
 */
export async function main(argv: readonly string[]): Promise<number> {
  const program = buildProgram();
  try {
    await program.parseAsync([...argv]);
    return typeof process.exitCode === 'number' ? process.exitCode : 0;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Commander already printed its message (or the help / version text).
      return error.exitCode;
    }
    if (error instanceof UsageError) {
      process.stderr.write(`assay: ${error.message}\n`);
      return error.exitCode;
    }
    throw error;
  }
}
