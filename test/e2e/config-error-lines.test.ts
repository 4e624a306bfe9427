import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBuiltCli } from '../support/built-cli.js';
import { REPOSITORY_ROOT } from '../support/markdown.js';
import { createTempFolder, type TempFolder } from '../support/temp-folder.js';

/**
 * A config file with several bad fields: each problem is its own line on
 * stderr, in the form of every failure (`assay <command>: ...`), so each can
 * be read, searched for and fixed on its own; other failures stay one line.
 */

const DATASET = join(REPOSITORY_ROOT, 'examples', 'datasets', 'search-assistant.jsonl');

let folder: TempFolder;
let badConfig: string;
beforeAll(async () => {
  folder = await createTempFolder();
  badConfig = await folder.write('bad-config.yaml', 'judge:\n  model: 3\n  concurrency: -1\n');
});
afterAll(async () => {
  await folder.remove();
});

describe('a config with several bad fields', () => {
  it.each([
    ['run', () => ['run', DATASET, '--config', badConfig, '--store', join(folder.path, 'store'), '--out', join(folder.path, 'out')]],
    ['judges', () => ['judges', '--config', badConfig]],
  ])('assay %s prints one line per problem and exits 2', async (command, args) => {
    // Act
    const result = await runBuiltCli(args());

    // Assess
    expect(result.exitCode).toBe(2);
    const lines = result.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(
      new RegExp(`^assay ${command}: .*bad-config\\.yaml: field "judge\\.model": expected a text, got number 3 \\(fix: [^;]*\\)$`),
    );
    expect(lines[1]).toMatch(
      new RegExp(
        `^assay ${command}: .*bad-config\\.yaml: field "judge\\.concurrency": expected a number >= 1, got number -1 \\(fix: [^;]*\\)$`,
      ),
    );
  });
});
