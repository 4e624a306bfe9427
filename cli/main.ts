import { Command, CommanderError, Help } from 'commander';
import { rememberSecret } from '../shared/secrets/scrub-secrets.js';
import { COMMAND_TABLE, type CommandEntry } from './command-table.js';
import { EXIT_USAGE, failureMessage } from './failure-message.js';

/**
 * Builds the `assay` program for these arguments. Only the command they name
 * (`assay NAME ...` or `assay help NAME`) is loaded; the others are listed by
 * name for `assay --help`, so a command never pays for another's dependencies.
 */
export async function buildProgram(argv: readonly string[]): Promise<Command> {
  const program = new Command('assay')
    .description('Evaluation pipeline for RAG and search systems')
    .version('0.1.0')
    .option('--debug', 'print the stack trace of an unexpected error (as ASSAY_DEBUG=1 does)')
    .exitOverride()
    .showHelpAfterError(false);
  const requested = requestedCommand(argv.slice(2));
  for (const entry of COMMAND_TABLE) {
    program.addCommand(entry.name === requested ? await entry.load() : listedCommand(entry));
  }
  const standardHelp = new Help();
  const terms = new Map(COMMAND_TABLE.map((entry) => [entry.name, entry.term]));
  program.configureHelp({ subcommandTerm: (command) => terms.get(command.name()) ?? standardHelp.subcommandTerm(command) });
  configureErrors(program);
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
 * addCommand does not pass settings down, so every command gets them here:
 * exitOverride (without it a subcommand's usage error would exit the
 * process) and commander's own errors on one line, named like ours.
 */
function configureErrors(command: Command): void {
  command.exitOverride();
  command.configureOutput({
    outputError: (text, write) =>
      write(
        `${commandLabel(command)}: ${text
          .replace(/^error: /, '')
          .trim()
          .replace(/\s*\n\s*/g, ' ')}\n`,
      ),
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
 * stderr, but a config with several problems, one line each; an unexpected
 * error shows its stack trace only with --debug or ASSAY_DEBUG=1.
 */
export async function main(argv: readonly string[]): Promise<number> {
  rememberSecret(process.env.OPENAI_API_KEY);
  rememberSecret(process.env.AZURE_OPENAI_API_KEY);
  const program = await buildProgram(argv);
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
    for (const line of failure.lines) process.stderr.write(`${label}: ${line}\n`);
    return failure.exitCode;
  }
}
