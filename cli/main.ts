import { Command, CommanderError, Help } from 'commander';
import { COMMAND_TABLE, type CommandEntry } from './command-table.js';
import { UsageError } from './usage-error.js';

/**
 * Builds the `assay` program for these arguments. Only the command they name
 * (`assay NAME ...` or `assay help NAME`) is loaded; the others are listed by
 * name for `assay --help`, so a command never pays for another's dependencies.
 */
export async function buildProgram(argv: readonly string[]): Promise<Command> {
  const program = new Command('assay')
    .description('Evaluation pipeline for RAG and search systems')
    .version('0.1.0')
    .exitOverride()
    .showHelpAfterError(false);
  const requested = requestedCommand(argv.slice(2));
  for (const entry of COMMAND_TABLE) {
    program.addCommand(entry.name === requested ? await entry.load() : listedCommand(entry));
  }
  const standardHelp = new Help();
  const terms = new Map(COMMAND_TABLE.map((entry) => [entry.name, entry.term]));
  program.configureHelp({ subcommandTerm: (command) => terms.get(command.name()) ?? standardHelp.subcommandTerm(command) });
  // addCommand does not pass settings down: without this a subcommand's usage error would exit the process.
  for (const command of program.commands) command.exitOverride();
  return program;
}

/** The subcommand the arguments name: the first operand, or the one after `help`. */
function requestedCommand(args: readonly string[]): string | undefined {
  const operands = args.filter((argument) => !argument.startsWith('-'));
  return operands[0] === 'help' ? operands[1] : operands[0];
}

/** A command as `assay --help` lists it, without loading its module. */
function listedCommand(entry: CommandEntry): Command {
  return new Command(entry.name).description(entry.description).action(() => {
    throw new Error(`assay ${entry.name} ran without being loaded`);
  });
}

/**
 * Runs the CLI and returns the process exit code. Expected failures (bad input,
 * bad options) print one clear message on stderr; anything else is a bug and
 * keeps its stack trace.
 */
export async function main(argv: readonly string[]): Promise<number> {
  const program = await buildProgram(argv);
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
