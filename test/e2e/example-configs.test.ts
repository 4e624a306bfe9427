import { readdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfigText } from '../../shared/config/config-text.js';
import { runBuiltCli } from '../support/built-cli.js';
import { REPOSITORY_ROOT } from '../support/markdown.js';
import { runCli } from '../support/run-cli.js';
import { createTempFolder, type TempFolder } from '../support/temp-folder.js';

/**
 * Every config in examples/configs/, YAML and JSON, read by the built CLI as a
 * user's `npx assay judges --config F` reads it: the build parses it exactly as
 * the source does, and knows every judge it names. A config that cannot be
 * used reads as a config error through the build too (exit 2, the file and the
 * fix), never as an unexpected one.
 */
const CONFIGS = readdirSync(join(REPOSITORY_ROOT, 'examples', 'configs')).sort();

let folder: TempFolder;
beforeAll(async () => {
  folder = await createTempFolder();
});
afterAll(() => folder.remove());

describe('the example configs through the built CLI', () => {
  it('holds YAML and JSON configs', () => {
    expect(new Set(CONFIGS.map((name) => name.split('.').pop()))).toEqual(new Set(['json', 'yaml']));
  });

  it.each(CONFIGS)('assay judges --config examples/configs/%s', async (name) => {
    // Prepare
    const path = join('examples', 'configs', name);
    const parsed = await parseConfigText(
      await readFile(join(REPOSITORY_ROOT, path), 'utf8'),
      path,
      name.endsWith('.json') ? 'json' : 'yaml',
    );
    const named = parsed.ok ? ((parsed.value as { judges?: string[] }).judges ?? []) : [];

    // Act
    const built = await runBuiltCli(['judges', '--json', '--config', path]);
    const source = await runCli(['judges', '--json', '--config', path]);

    // Assess: the build lists what the source lists, every judge the config names among them
    expect({ exitCode: built.exitCode, stderr: built.stderr }).toEqual({ exitCode: 0, stderr: '' });
    expect(built.stdout).toBe(source.stdout);
    const listed = (JSON.parse(built.stdout) as { id: string }[]).map((judge) => judge.id);
    expect(named.length).toBeGreaterThan(0);
    expect(named.filter((id) => !listed.includes(id))).toEqual([]);
  });
});

describe('config errors through the built CLI', () => {
  it.each([
    { name: 'broken.yaml', text: 'judges: [chunk_relevance\n', says: 'broken.yaml: not valid YAML: ' },
    { name: 'misspelt.yaml', text: 'judges: [chunk_relevance]\nrun:\n  cutofs: [5]\n', says: 'cutofs' },
    {
      name: 'bomb.yaml',
      text: `a: &a [x, x, x, x, x, x, x, x, x, x]\n${Array.from(
        { length: 8 },
        (_, level) =>
          `l${level}: &l${level} [${Array(10)
            .fill(level === 0 ? '*a' : `*l${level - 1}`)
            .join(', ')}]`,
      ).join('\n')}\n`,
      says: 'not usable YAML',
    },
    { name: 'broken.json', text: '{"judges": ["chunk_relevance",]}', says: 'broken.json: not valid JSON: ' },
  ])('$name: exit 2, naming the file and the problem, as the source does', async ({ name, text, says }) => {
    // Prepare
    const path = await folder.write(name, text);

    // Act
    const built = await runBuiltCli(['judges', '--config', path]);
    const source = await runCli(['judges', '--config', path]);

    // Assess
    expect(built.exitCode).toBe(2);
    expect(built.stderr).toContain(says);
    expect(built.stderr).not.toContain('(unexpected error');
    expect({ exitCode: built.exitCode, stderr: built.stderr, stdout: built.stdout }).toEqual({
      exitCode: source.exitCode,
      stderr: source.stderr,
      stdout: source.stdout,
    });
  });
});
