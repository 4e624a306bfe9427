import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from './support/assay-app.js';

const run = promisify(execFile);

/** The CLI synthesis bundles all five functions with esbuild: the slowest step of the infra tests. */
const CLI_TIMEOUT_MS = 180_000;

interface Template {
  Resources: Record<string, { Type: string; Properties: { Runtime?: string; Code?: { S3Key?: string } } }>;
}
interface AssetManifest {
  files: Record<string, { source: { path: string; packaging?: string } }>;
}

/**
 * `npx cdk synth --quiet` the way a user runs it, in a child process without
 * AWS credentials: the stack is environment-agnostic and looks nothing up, so
 * synthesis needs no account. It is also the one synthesis that bundles, so
 * the bundles are checked here.
 */
describe('npx cdk synth --quiet', () => {
  let folder: string;
  let outdir: string;
  let exit: { code: number; stderr: string };

  beforeAll(async () => {
    // Prepare: a scratch folder whose node_modules lets the bundles resolve the AWS SDK they leave out.
    folder = await mkdtemp(join(tmpdir(), 'assay-cdk-synth-'));
    outdir = join(folder, 'cdk.out');
    await symlink(join(PROJECT_ROOT, 'node_modules'), join(folder, 'node_modules'), 'dir');
    const environment = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('AWS_') && !name.startsWith('CDK_DEFAULT_')));

    // Act
    try {
      const { stderr } = await run('npx', ['cdk', 'synth', '--quiet', '--output', outdir], { cwd: PROJECT_ROOT, env: environment, maxBuffer: 16 * 1024 * 1024 });
      exit = { code: 0, stderr };
    } catch (error) {
      const failed = error as { code?: number; stderr?: string };
      exit = { code: failed.code ?? -1, stderr: failed.stderr ?? String(error) };
    }
  }, CLI_TIMEOUT_MS);

  afterAll(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  it('exits 0 with no AWS credentials in its environment', () => {
    expect(exit.code, exit.stderr).toBe(0);
  });

  it('bundles each function into an ES module asset that loads and exports its handler', async () => {
    // Prepare: the functions in the template, and the asset each one's code comes from.
    const templateFile = (await readdir(outdir)).find((name) => name.endsWith('.template.json'));
    const template = JSON.parse(await readFile(join(outdir, templateFile ?? 'missing'), 'utf8')) as Template;
    const assets = JSON.parse(await readFile(join(outdir, (templateFile ?? '').replace('.template.json', '.assets.json')), 'utf8')) as AssetManifest;
    const bundles = Object.values(template.Resources)
      .filter((resource) => resource.Type === 'AWS::Lambda::Function' && resource.Properties.Runtime?.startsWith('nodejs'))
      .map((resource) => {
        const hash = (resource.Properties.Code?.S3Key ?? '').replace(/\.zip$/, '');
        return join(outdir, assets.files[hash]?.source.path ?? `no asset for ${hash}`, 'index.mjs');
      });
    expect(bundles).toHaveLength(5);
    for (const bundle of bundles) expect(existsSync(bundle), bundle).toBe(true);

    // Act: load every bundle in a plain Node.js process, as the Lambda runtime does.
    const loader = `const urls = ${JSON.stringify(bundles.map((bundle) => pathToFileURL(bundle).href))};
      const kinds = await Promise.all(urls.map(async (url) => typeof (await import(url)).handler));
      console.log(JSON.stringify(kinds));`;
    const { stdout } = await run(process.execPath, ['--input-type=module', '--eval', loader], { cwd: folder });

    // Assess
    expect(JSON.parse(stdout)).toEqual(bundles.map(() => 'function'));
  }, CLI_TIMEOUT_MS);
});
