import { Help } from 'commander';
import { describe, expect, it } from 'vitest';
import { COMMAND_TABLE } from '../../../cli/command-table.js';
import { runCli } from '../../support/run-cli.js';

/** The table lists each command without loading it; what it lists must be what the command declares. */
describe('the command table', () => {
  it.each(COMMAND_TABLE.map((entry) => ({ name: entry.name, entry })))(
    '$name: the listed term and description are those of the loaded command',
    async ({ entry }) => {
      // Act
      const command = await entry.load();
      // Assess
      expect(command.name()).toBe(entry.name);
      expect(new Help().subcommandTerm(command)).toBe(entry.term);
      expect(command.description()).toBe(entry.description);
    },
  );

  it('lists every command once, in `assay --help`', async () => {
    // Act
    const result = await runCli(['--help']);
    // Assess
    expect(new Set(COMMAND_TABLE.map((entry) => entry.name)).size).toBe(COMMAND_TABLE.length);
    const listed = result.stdout
      .split('Commands:\n')[1]
      ?.split('\n')
      .filter((line) => /^ {2}\S/.test(line))
      .map((line) => line.trim().split(' ')[0]);
    expect(listed).toEqual([...COMMAND_TABLE.map((entry) => entry.name), 'help']);
  });

  it.each([
    { args: ['help', 'ir-metrics'], shows: 'Usage: assay ir-metrics [options] <qrels> <runs...>' },
    { args: ['ir-metrics', '--help'], shows: 'Usage: assay ir-metrics [options] <qrels> <runs...>' },
    { args: ['baseline', 'set', '--help'], shows: 'Usage: assay baseline set [options] <run>' },
  ])('loads the command a help request names: $args', async ({ args, shows }) => {
    // Act
    const result = await runCli(args);
    // Assess
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain(shows);
  });

  it('names an unknown command', async () => {
    const result = await runCli(['ir-metric']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain("unknown command 'ir-metric'");
  });
});
