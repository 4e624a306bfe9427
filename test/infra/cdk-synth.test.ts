import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { CLI_TIMEOUT_MS, cliSynthesis, synthesizeWithCliOnce } from './support/cli-synthesis.js';
import { readSynthesizedTemplate } from './support/synthesized-template.js';
// Registers the tests that run the bundles on the emulator, over this file's one synthesis.
import './synth/deployed-bundles.js';

const run = promisify(execFile);

/**
 * `npx cdk synth --quiet` the way a user runs it, in a child process without
 * AWS credentials: the stack is environment-agnostic and looks nothing up, so
 * synthesis needs no account. It is also the one synthesis that bundles, so
 * the bundles are checked here (and in synth/, over the same output).
 */
synthesizeWithCliOnce();

describe('npx cdk synth --quiet', () => {
  it('exits 0 with no AWS credentials in its environment', () => {
    const { exit } = cliSynthesis();
    expect(exit.code, exit.stderr).toBe(0);
  });

  it(
    'bundles each function into an ES module asset that loads and exports its handler',
    async () => {
      // Prepare: the functions in the template, and the bundle each one's code comes from.
      const { folder, outdir } = cliSynthesis();
      const bundles = (await readSynthesizedTemplate(outdir)).functions.map((fn) => join(fn.assetFolder, 'index.mjs'));
      expect(bundles).toHaveLength(5);
      for (const bundle of bundles) expect(existsSync(bundle), bundle).toBe(true);

      // Act: load every bundle in a plain Node.js process, as the Lambda runtime does.
      const loader = `const urls = ${JSON.stringify(bundles.map((bundle) => pathToFileURL(bundle).href))};
      const kinds = await Promise.all(urls.map(async (url) => typeof (await import(url)).handler));
      console.log(JSON.stringify(kinds));`;
      const { stdout } = await run(process.execPath, ['--input-type=module', '--eval', loader], { cwd: folder });

      // Assess
      expect(JSON.parse(stdout)).toEqual(bundles.map(() => 'function'));
    },
    CLI_TIMEOUT_MS,
  );
});
