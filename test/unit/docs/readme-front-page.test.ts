import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { linkTargets, readRepositoryFile, REPOSITORY_ROOT } from '../../support/markdown.js';
import { runCli } from '../../support/run-cli.js';

/** The README is the front page: what assay is, how to start, and where each detail lives. */
describe('the README', () => {
  const readme = readRepositoryFile('README.md');

  it('stays a front page of at most 300 lines', () => {
    expect(readme.split('\n').length).toBeLessThanOrEqual(300);
  });

  it('lists every command that `assay --help` lists', async () => {
    // Prepare
    const help = await runCli(['--help']);
    const commands = help.stdout
      .split('Commands:\n')[1]
      ?.split('\n')
      .filter((line) => /^ {2}\S/.test(line))
      .map((line) => line.trim().split(' ')[0])
      .filter((name) => name !== 'help');

    // Act
    const unlisted = (commands ?? []).filter((name) => !readme.includes(`| \`assay ${name}`));

    // Assess
    expect(commands?.length).toBeGreaterThan(0);
    expect(unlisted).toEqual([]);
  });

  it('links every page of docs/', () => {
    // Prepare
    const pages = readdirSync(join(REPOSITORY_ROOT, 'docs')).filter((name) => name.endsWith('.md'));

    // Act
    const linked = new Set(linkTargets(readme).map((target) => target.split('#')[0]));
    const unlinked = pages.filter((page) => !linked.has(`docs/${page}`));

    // Assess
    expect(unlinked).toEqual([]);
  });
});
